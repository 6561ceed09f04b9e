import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { BrowserWindow, app, session, shell, type WebContents } from 'electron'
import { CONTENT_SECURITY_POLICY } from './security'

/**
 * The renderer's own origin; anything else is navigation away and is refused. The dev server URL is
 * honoured only in development, so an environment variable can never point a packaged app elsewhere.
 */
export function rendererUrl(outDir: string): string {
  const dev = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined
  return dev ?? pathToFileURL(join(outDir, 'renderer', 'index.html')).href
}

export function isAppUrl(url: string, appUrl: string): boolean {
  try {
    const a = new URL(url)
    const b = new URL(appUrl)
    return a.protocol === b.protocol && a.host === b.host && a.pathname === b.pathname
  } catch {
    return false
  }
}

/** Hardens every web contents: no navigation away, no new windows, no webviews, no permissions. */
export function hardenSessions(appUrl: string): void {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } })
  })
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false))
  session.defaultSession.setPermissionCheckHandler(() => false)
  app.on('web-contents-created', (_e, contents: WebContents) => {
    contents.on('will-navigate', (event, url) => {
      if (!isAppUrl(url, appUrl)) event.preventDefault()
    })
    contents.on('will-redirect', (event, url) => {
      if (!isAppUrl(url, appUrl)) event.preventDefault()
    })
    contents.on('will-frame-navigate', (event) => {
      if (!isAppUrl(event.url, appUrl)) event.preventDefault()
    })
    contents.on('will-attach-webview', (event) => event.preventDefault())
    contents.setWindowOpenHandler(({ url }) => {
      // Links to documentation open in the user's browser, never inside the app.
      if (url.startsWith('https://')) void shell.openExternal(url)
      return { action: 'deny' }
    })
  })
}

/**
 * The window icon, from the top-level resources/ folder. Unpackaged, `outDir` is out/ (the built
 * out/main/index.js is one level down), so resources/ sits beside it; packaged, resources/ travels
 * inside the app (app.getAppPath()) or as extra resources (process.resourcesPath). macOS takes the
 * bundle's icon instead and ignores this one.
 */
export function appIconPath(outDir: string): string | undefined {
  const candidates = [
    join(outDir, '..', 'resources', 'icon.png'),
    join(app.getAppPath(), 'resources', 'icon.png'),
    ...(process.resourcesPath ? [join(process.resourcesPath, 'icon.png')] : []),
  ]
  return candidates.find((p) => existsSync(p))
}

export function createMainWindow(outDir: string, appUrl: string): BrowserWindow {
  const win = new BrowserWindow({
    width: 1360,
    height: 880,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Harness Lab',
    icon: appIconPath(outDir),
    webPreferences: {
      preload: join(outDir, 'preload', 'index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  })
  win.once('ready-to-show', () => win.show())
  void win.loadURL(appUrl)
  return win
}
