import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import config, { ELECTRON_BUILDER_VERSION, fuses } from '../../electron-builder.config'

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  main: string
  scripts: Record<string, string>
  dependencies: Record<string, string>
  devDependencies: Record<string, string>
}

describe('packaging config (electron-builder)', () => {
  it('sets the fuses: RunAsNode, NODE_OPTIONS and inspect arguments off; ASAR integrity and ASAR-only loading on', () => {
    expect(fuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    })
    expect(config.electronFuses).toBe(fuses)
    // Integrity checking and ASAR-only loading mean nothing without an archive.
    expect(config.asar).toBe(true)
  })

  it('packs the built app and the Electron build of better-sqlite3, with native code unpacked', () => {
    expect(pkg.main.startsWith('out/')).toBe(true)
    expect(config.files).toEqual(expect.arrayContaining(['out/**/*', 'native/electron-*/**/*', 'package.json']))
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['native/**/*', '**/*.node']))
    expect(config.npmRebuild).toBe(false)
    expect(config.directories.output).toBe('dist')
  })

  it('is built by one pinned electron-builder, never a moving version', () => {
    const script = pkg.scripts['build:installer']!
    expect(ELECTRON_BUILDER_VERSION).toMatch(/^\d+\.\d+\.\d+$/)
    expect(script).toContain(`electron-builder@${ELECTRON_BUILDER_VERSION} --config electron-builder.config.ts`)
    expect(script).toMatch(/prepare:electron.*electron-vite build.*electron-builder/)
    // Not a dependency: see the config's header (npm ci must keep working with only the npm registry).
    expect(pkg.devDependencies['electron-builder']).toBeUndefined()
    expect(pkg.devDependencies.electron).toMatch(/^\d+\.\d+\.\d+$/)
  })
})
