/**
 * Packaging of the desktop app with electron-builder (`npm run build:installer`, on a machine with
 * internet: see README "Packaging"). electron-builder is not a devDependency on purpose: its native
 * rebuild helper pulls a package from GitHub, which would break `npm ci` where only the npm registry
 * is reachable (CI). The script runs one pinned version through npx instead.
 *
 * This file imports nothing, so the tests read the same object electron-builder reads.
 */

/** The version `npm run build:installer` runs (26.0.x: the last line whose dependencies install on Node 20). */
export const ELECTRON_BUILDER_VERSION = '26.0.20'

/**
 * Electron fuses, flipped in the packaged binary (they cannot be changed at run time):
 * - runAsNode off: ELECTRON_RUN_AS_NODE cannot turn the app into a plain Node interpreter;
 * - NODE_OPTIONS / NODE_EXTRA_CA_CERTS ignored, --inspect* flags and SIGUSR1 ignored;
 * - the embedded ASAR integrity check on, and the app loaded only from app.asar (so the checked
 *   archive is the only code that can run);
 * - file:// gets no extra privileges (the renderer is served over the harness-lab:// scheme).
 * The app needs none of what they disable: its jobs are worker threads, not `process.fork`.
 */
export const fuses = {
  runAsNode: false,
  enableNodeOptionsEnvironmentVariable: false,
  enableNodeCliInspectArguments: false,
  enableEmbeddedAsarIntegrityValidation: true,
  onlyLoadAppFromAsar: true,
  enableCookieEncryption: true,
  grantFileProtocolExtraPrivileges: false,
  loadBrowserProcessSpecificV8Snapshot: false,
} as const

const config = {
  appId: 'org.harness-lab.workbench',
  productName: 'Harness Lab',
  copyright: 'Harness Lab contributors',
  directories: { output: 'dist', buildResources: 'resources' },
  // The built app (electron-vite's out/), the icon, and the Electron build of better-sqlite3 that
  // `npm run prepare:electron` made (the app loads it from native/electron-<version>/). Production
  // dependencies are added by electron-builder itself.
  files: ['out/**/*', 'resources/**/*', 'native/electron-*/**/*', 'package.json', '!out/**/*.map'],
  asar: true,
  // Native code cannot be loaded from inside the archive.
  asarUnpack: ['native/**/*', '**/*.node', 'node_modules/node-llama-cpp/**/*', 'node_modules/@node-llama-cpp/**/*'],
  // native/ already holds better-sqlite3 for Electron's ABI; node-llama-cpp ships prebuilt N-API binaries.
  npmRebuild: false,
  electronFuses: fuses,
  linux: { target: ['AppImage', 'deb'], category: 'Science', icon: 'resources/icon.png', maintainer: 'Harness Lab contributors' },
  mac: { target: ['dmg'], category: 'public.app-category.developer-tools', icon: 'resources/icon.png', hardenedRuntime: true },
  win: { target: ['nsis'], icon: 'resources/icon.png' },
  nsis: { oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true },
  publish: null,
}

export default config
