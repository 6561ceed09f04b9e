import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { BrowserWindow, app, protocol, session, shell, type WebContents } from 'electron'
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, externalLinkAllowed, isAppUrl, rendererProtocolResponse } from './electron-policy'
import { CONTENT_SECURITY_POLICY } from './security'

export { isAppUrl } from './electron-policy'

/** Must run before the app is ready: the app's scheme is a standard, secure origin (not file://). */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { ...APP_SCHEME_PRIVILEGES } }])
}

/** Serves the built renderer over the app's scheme, every answer with the CSP header. */
export function handleAppScheme(rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => rendererProtocolResponse(request, rendererDir))
}

/** Hardens every web contents: no navigation away, no new windows, no webviews, no permissions. */
export function hardenSessions(appUrl: string): void {
  // The dev server (development only) sends no CSP of its own: add it. The app scheme sets its own.
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
      // Only documentation the app links to opens in the user's browser (an allowlist); nothing opens inside the app.
      if (externalLinkAllowed(url)) void shell.openExternal(url)
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

export function createMainWindow(outDir: string, appUrl: string, options: { development: boolean }): BrowserWindow {
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
      // A production build cannot open DevTools at all (no menu item, no shortcut, no API).
      devTools: options.development,
    },
  })
  win.once('ready-to-show', () => win.show())
  void win.loadURL(appUrl)
  return win
}
