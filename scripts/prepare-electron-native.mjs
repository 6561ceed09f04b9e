#!/usr/bin/env node
// Builds better-sqlite3 for Electron's ABI into native/electron-<version>/, leaving node_modules
// (Node's ABI, used by tests, the CLI and browser mode) untouched. Needs internet once for Electron's headers.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)
const electronVersion = require('electron/package.json').version
const abi = readFileSync(join(root, 'node_modules', 'electron', 'abi_version'), 'utf8').trim()
const source = dirname(require.resolve('better-sqlite3/package.json'))
const work = join(root, 'native', '.build', `better-sqlite3-electron-${electronVersion}`)
const target = join(root, 'native', `electron-${electronVersion}`)

console.log(`Building better-sqlite3 for Electron ${electronVersion} (ABI ${abi}) in ${work}`)
rmSync(work, { recursive: true, force: true })
mkdirSync(work, { recursive: true })
cpSync(source, work, { recursive: true, filter: (p) => !p.includes(`${source}/build`) })

// npm exports npm_config_nodedir (set on some machines), which would make node-gyp build against Node's
// headers and silently produce a module for the wrong ABI: drop every npm_config_* for this build.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_config_')))
const nodeGyp = require.resolve('node-gyp/bin/node-gyp.js')
const result = spawnSync(
  process.execPath,
  [nodeGyp, 'rebuild', '--release', `--target=${electronVersion}`, `--arch=${process.arch}`, '--dist-url=https://electronjs.org/headers', '--runtime=electron'],
  { cwd: work, stdio: 'inherit', env },
)
if (result.status !== 0) {
  console.error('The Electron build of better-sqlite3 failed: Electron headers need internet once. Browser mode (`npm run serve`) works without it.')
  process.exit(1)
}

const built = join(work, 'build', 'Release', 'better_sqlite3.node')
// Loading it in Node must fail with Electron's ABI number: proof it was not built for Node by mistake.
try {
  require(built)
  console.error('The module loaded in Node, so it was built for Node, not Electron. Check npm config nodedir.')
  process.exit(1)
} catch (err) {
  const match = /NODE_MODULE_VERSION (\d+)/.exec(String(err.message))
  if (!match || match[1] !== abi) {
    console.error(`Unexpected ABI check result: ${err.message}`)
    process.exit(1)
  }
}
mkdirSync(target, { recursive: true })
cpSync(built, join(target, 'better_sqlite3.node'))
console.log(`Electron build ready: ${join(target, 'better_sqlite3.node')}`)
if (!existsSync(join(target, 'better_sqlite3.node'))) process.exit(1)
