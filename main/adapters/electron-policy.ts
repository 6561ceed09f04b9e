/**
 * The Electron app's security decisions as plain functions, so they are tested without Electron
 * (this file imports only Electron's types): which build is development, which URL is the app, which
 * links may leave it, what the menu offers, and how the renderer is served over the app's own scheme.
 */
import { readFile } from 'node:fs/promises'
import { extname, join, normalize, resolve, sep } from 'node:path'
import type { MenuItemConstructorOptions } from 'electron'
import { CONTENT_SECURITY_POLICY, isLoopbackHost } from './security'

/** The renderer is served from `harness-lab://app/`, a privileged standard scheme, never from file://. */
export const APP_SCHEME = 'harness-lab'
export const APP_HOST = 'app'
export const APP_URL = `${APP_SCHEME}://${APP_HOST}/index.html`

/**
 * How the scheme is registered (protocol.registerSchemesAsPrivileged, before the app is ready):
 * standard (real origin, relative URLs), secure (like https: a secure context), fetch and code cache.
 * No CORS bypass and no service workers.
 */
export const APP_SCHEME_PRIVILEGES = { standard: true, secure: true, supportFetchAPI: true, codeCache: true } as const

export interface LaunchContext {
  /** app.isPackaged */
  isPackaged: boolean
  env: Readonly<Record<string, string | undefined>>
}

/**
 * Development: an unpackaged app started by a developer who said so (`electron-vite dev` sets
 * NODE_ENV_ELECTRON_VITE=development; or NODE_ENV=development). A packaged app is never development,
 * whatever its environment says.
 */
export function isDevelopment(ctx: LaunchContext): boolean {
  if (ctx.isPackaged) return false
  return ctx.env.NODE_ENV_ELECTRON_VITE === 'development' || ctx.env.NODE_ENV === 'development'
}

/** The dev server's URL (ELECTRON_RENDERER_URL), honoured only in development and only on loopback over http(s). */
export function devServerUrl(ctx: LaunchContext): string | null {
  const raw = ctx.env.ELECTRON_RENDERER_URL
  if (!raw || !isDevelopment(ctx)) return null
  try {
    const url = new URL(raw)
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !isLoopbackHost(url.hostname) || url.username || url.password) return null
    return url.href
  } catch {
    return null
  }
}

/** The URL the window loads: the dev server in development, else the app's own scheme. */
export function rendererUrl(ctx: LaunchContext): string {
  return devServerUrl(ctx) ?? APP_URL
}

/** Whether `url` is the app's page (any #route of it): same scheme, host and path as `appUrl`. */
export function isAppUrl(url: string, appUrl: string): boolean {
  try {
    const a = new URL(url)
    const b = new URL(appUrl)
    return a.protocol === b.protocol && a.host === b.host && a.pathname === b.pathname && a.username === '' && a.password === ''
  } catch {
    return false
  }
}

/**
 * Links that may open in the user's browser: documentation the app itself shows, as https URL
 * prefixes. The app shows none today, so nothing leaves it; a page that adds a documentation link
 * adds its prefix here.
 */
export const EXTERNAL_LINK_ALLOWLIST: readonly string[] = []

/**
 * Whether window.open / a target=_blank link may hand `url` to the system browser: https only, no
 * credentials, default port, exactly the host of an allowlist entry and under its path.
 */
export function externalLinkAllowed(url: string, allowlist: readonly string[] = EXTERNAL_LINK_ALLOWLIST): boolean {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    return false
  }
  if (u.protocol !== 'https:' || u.username || u.password || u.port !== '') return false
  return allowlist.some((entry) => {
    try {
      const e = new URL(entry)
      if (e.protocol !== 'https:' || e.host !== u.host) return false
      const prefix = e.pathname.endsWith('/') ? e.pathname : `${e.pathname}/`
      return u.pathname === e.pathname || u.pathname.startsWith(prefix) || e.pathname === '/'
    } catch {
      return false
    }
  })
}

export interface MenuOptions {
  platform: NodeJS.Platform
  development: boolean
  version: string
  openDataFolder: () => void
}

/** The application menu. DevTools (and force reload) only in development; a production build has no way to open them. */
export function appMenuTemplate(o: MenuOptions): MenuItemConstructorOptions[] {
  const isMac = o.platform === 'darwin'
  const view: MenuItemConstructorOptions[] = [
    { role: 'reload' },
    ...(o.development ? [{ role: 'forceReload' as const }, { role: 'toggleDevTools' as const }] : []),
    { type: 'separator' },
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ]
  return [
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [{ label: 'Open Data Folder', click: () => o.openDataFolder() }, { type: 'separator' }, isMac ? { role: 'close' } : { role: 'quit' }],
    },
    { role: 'editMenu' },
    { label: 'View', submenu: view },
    { role: 'windowMenu' },
    { role: 'help', submenu: [{ label: `Harness Lab ${o.version}`, enabled: false }] },
  ]
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
}

/** Headers of every answer of the app scheme: the CSP as a real header (a meta tag cannot set frame-ancestors), no sniffing. */
export const APP_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-cache',
}

const plain = (status: number, text: string): Response =>
  new Response(text, { status, headers: { ...APP_RESPONSE_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' } })

/**
 * The `protocol.handle(APP_SCHEME, …)` handler: a file of the built renderer folder for
 * `harness-lab://app/<path>`, with the security headers. Only GET/HEAD, only that host, never a path
 * outside `rendererDir` (`..`, encoded separators, NUL).
 */
export async function rendererProtocolResponse(request: { url: string; method?: string }, rendererDir: string): Promise<Response> {
  const method = (request.method ?? 'GET').toUpperCase()
  if (method !== 'GET' && method !== 'HEAD') return plain(405, 'Method not allowed')
  let url: URL
  try {
    url = new URL(request.url)
  } catch {
    return plain(400, 'Bad URL')
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return plain(404, 'Not found')
  let path: string
  try {
    path = decodeURIComponent(url.pathname)
  } catch {
    return plain(400, 'Bad URL')
  }
  if (path === '/' || path === '') path = '/index.html'
  if (path.includes('\0') || path.includes('\\') || path.split('/').includes('..')) return plain(404, 'Not found')
  const root = resolve(rendererDir)
  const file = resolve(root, normalize(`.${path}`))
  if (file !== root && !file.startsWith(root + sep)) return plain(404, 'Not found')
  let body: Buffer
  try {
    body = await readFile(file)
  } catch {
    return plain(404, 'Not found')
  }
  const type = MIME[extname(file).toLowerCase()] ?? 'application/octet-stream'
  return new Response(method === 'HEAD' ? null : new Uint8Array(body), {
    status: 200,
    headers: { ...APP_RESPONSE_HEADERS, 'Content-Type': type, 'Content-Length': String(body.length) },
  })
}

/** Where the built renderer lies beside the built main process (out/main/index.js → out/renderer). */
export const rendererDirOf = (outDir: string): string => join(outDir, 'renderer')
