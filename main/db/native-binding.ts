import { existsSync } from 'node:fs'
import { join } from 'node:path'

/**
 * better-sqlite3 is compiled for Node's ABI in node_modules (tests, CLI, browser mode).
 * Under Electron we load a separate build kept in native/electron/ (made by `npm run prepare:electron`)
 * so the two never overwrite each other.
 */
export function nativeBindingPath(): string | undefined {
  const electron = process.versions.electron
  if (!electron) return undefined
  const root = process.env.HARNESS_LAB_APP_ROOT ?? process.cwd()
  const file = join(root, 'native', `electron-${electron}`, 'better_sqlite3.node')
  if (!existsSync(file)) {
    throw new Error(`No Electron build of better-sqlite3 at ${file}. Run \`npm run prepare:electron\` (needs internet once).`)
  }
  return file
}
