/** Electron entry: one secure window over the shared services. */
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { BrowserWindow, app, dialog } from 'electron'
import { registerIpc } from './adapters/electron-ipc'
import { installAppMenu } from './adapters/electron-menu'
import { isDevelopment, rendererDirOf, rendererUrl } from './adapters/electron-policy'
import { createMainWindow, handleAppScheme, hardenSessions, isAppUrl, registerAppScheme } from './adapters/electron-window'
import { createHandlers } from './api/handlers'
import { createServices, type Services } from './app/services'
import { resolveDataDir } from './config/paths'

const outDir = join(dirname(fileURLToPath(import.meta.url)), '..')
const launch = { isPackaged: app.isPackaged, env: process.env }
const development = isDevelopment(launch)
// Where native/electron-<version>/ (the Electron build of better-sqlite3) is found. Packaged, always the
// app itself: an environment variable must not choose which native module a packaged app loads.
if (app.isPackaged) process.env.HARNESS_LAB_APP_ROOT = app.getAppPath()
else process.env.HARNESS_LAB_APP_ROOT ??= app.getAppPath()

const flag = (name: string): string | undefined => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1] : process.argv.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1)
}

// Before ready: the renderer's origin is the app's own privileged scheme, not file://.
registerAppScheme()

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  let services: Services | undefined
  let window: BrowserWindow | undefined
  // The dev server only in development (unpackaged and asked for); otherwise harness-lab://app/index.html.
  const appUrl = rendererUrl(launch)

  app.on('second-instance', () => {
    if (!window) return
    if (window.isMinimized()) window.restore()
    window.focus()
  })

  app.whenReady().then(async () => {
    const dataDir = resolveDataDir(flag('--data-dir'))
    try {
      services = await createServices({ dataDir, worker: { url: new URL('./job-worker.js', import.meta.url) } })
    } catch (err) {
      dialog.showErrorBox('Harness Lab could not open its data', `${dataDir}\n\n${err instanceof Error ? err.message : String(err)}`)
      app.exit(1)
      return
    }
    const jobs = services.jobs
    handleAppScheme(rendererDirOf(outDir))
    hardenSessions(appUrl)
    installAppMenu(dataDir, development)
    const handlers = createHandlers(services, {
      mode: 'electron',
      pickFolder: async (title) => {
        const result = window
          ? await dialog.showOpenDialog(window, { title: title ?? 'Choose a folder', properties: ['openDirectory'] })
          : await dialog.showOpenDialog({ title: title ?? 'Choose a folder', properties: ['openDirectory'] })
        const picked = result.canceled ? null : (result.filePaths[0] ?? null)
        // A folder the user picked in the native dialog is one jobs may write into (an export's path), for this session.
        if (picked) jobs.allowOutputFolder(picked)
        return picked
      },
      pickFile: async (title, extensions) => {
        const options = {
          title: title ?? 'Choose a file',
          properties: ['openFile' as const],
          ...(extensions?.length ? { filters: [{ name: extensions.join(', '), extensions }] } : {}),
        }
        const result = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options)
        return result.canceled ? null : (result.filePaths[0] ?? null)
      },
    })
    // Only the app's own top-level page may call the API: not an iframe, not another origin.
    registerIpc(handlers, services.events, (e) => e.senderFrame !== null && e.senderFrame === e.sender.mainFrame && isAppUrl(e.senderFrame.url, appUrl))
    window = createMainWindow(outDir, appUrl, { development })
    window.on('closed', () => (window = undefined))
  })

  app.on('window-all-closed', () => app.quit())

  let closing = false
  app.on('will-quit', (event) => {
    if (!services || closing) return
    closing = true
    event.preventDefault()
    void services.close().finally(() => app.exit(0))
  })
}
