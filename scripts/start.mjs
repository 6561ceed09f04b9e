#!/usr/bin/env node
// `npm start`: the desktop app when Electron can run here, otherwise the same UI in the browser.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)
const args = process.argv.slice(2)
const forceBrowser = args.includes('--browser')
const passThrough = args.filter((a) => a !== '--browser')

function run(cmd, cmdArgs, options = {}) {
  const result = spawnSync(cmd, cmdArgs, { cwd: root, stdio: 'inherit', ...options })
  return result.status === 0
}

function build() {
  if (!run(process.execPath, [join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'])) {
    console.error('Build failed.')
    process.exit(1)
  }
}

/** Why Electron cannot run here, or null when it can. */
function electronUnavailable() {
  if (forceBrowser) return 'requested with --browser'
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return 'no display (DISPLAY/WAYLAND_DISPLAY unset)'
  let binary
  try {
    // Electron >= 42 downloads its binary on first use; without internet this throws.
    binary = require('electron')
  } catch (err) {
    return `the Electron binary is not available (${String(err.message).split('\n')[0]})`
  }
  if (typeof binary !== 'string' || !existsSync(binary)) return 'the Electron binary is not installed'
  const version = require('electron/package.json').version
  const native = join(root, 'native', `electron-${version}`, 'better_sqlite3.node')
  if (!existsSync(native) && !run(process.execPath, [join(root, 'scripts', 'prepare-electron-native.mjs')])) {
    return 'better-sqlite3 could not be built for Electron (see above; it needs internet once)'
  }
  return null
}

build()
const reason = electronUnavailable()
if (reason) {
  console.log(`Electron cannot start here: ${reason}. Serving the workbench in the browser instead.`)
  const child = spawn(process.execPath, [join(root, 'out', 'main', 'serve.js'), ...passThrough], { cwd: root, stdio: 'inherit' })
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig))
  child.on('exit', (code) => process.exit(code ?? 0))
} else {
  const binary = require('electron')
  const child = spawn(binary, [root, ...passThrough], { cwd: root, stdio: 'inherit', env: { ...process.env, HARNESS_LAB_APP_ROOT: root } })
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig))
  child.on('exit', (code) => process.exit(code ?? 0))
}
