import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { MenuItemConstructorOptions } from 'electron'
import { afterAll, describe, expect, it } from 'vitest'
import {
  APP_SCHEME,
  APP_SCHEME_PRIVILEGES,
  APP_URL,
  EXTERNAL_LINK_ALLOWLIST,
  appMenuTemplate,
  devServerUrl,
  externalLinkAllowed,
  isAppUrl,
  isDevelopment,
  rendererProtocolResponse,
  rendererUrl,
} from '../../main/adapters/electron-policy'
import { CONTENT_SECURITY_POLICY } from '../../main/adapters/security'
import { tempDir } from '../helpers/services'

// Electron cannot run here: these are the pure decisions main/index.ts and the electron-* adapters apply.

describe('development mode and the trusted app URL', () => {
  const dev = { NODE_ENV_ELECTRON_VITE: 'development', ELECTRON_RENDERER_URL: 'http://localhost:5173' }

  it('is development only unpackaged and when asked for', () => {
    expect(isDevelopment({ isPackaged: false, env: { NODE_ENV_ELECTRON_VITE: 'development' } })).toBe(true)
    expect(isDevelopment({ isPackaged: false, env: { NODE_ENV: 'development' } })).toBe(true)
    expect(isDevelopment({ isPackaged: false, env: {} })).toBe(false)
    expect(isDevelopment({ isPackaged: false, env: { ELECTRON_RENDERER_URL: 'http://localhost:5173' } })).toBe(false)
    expect(isDevelopment({ isPackaged: true, env: { NODE_ENV: 'development', NODE_ENV_ELECTRON_VITE: 'development' } })).toBe(false)
  })

  it('honours ELECTRON_RENDERER_URL only in development, only on loopback', () => {
    expect(rendererUrl({ isPackaged: false, env: dev })).toBe('http://localhost:5173/')
    // Unpackaged but not development (npm start), or packaged: the variable is ignored.
    expect(rendererUrl({ isPackaged: false, env: { ELECTRON_RENDERER_URL: 'https://evil.example/' } })).toBe(APP_URL)
    expect(rendererUrl({ isPackaged: true, env: dev })).toBe(APP_URL)
    for (const url of ['https://evil.example/', 'file:///etc/passwd', 'javascript:alert(1)', 'http://user:pw@localhost:5173/', 'not a url', 'http://127.0.0.1.evil.example/']) {
      expect(devServerUrl({ isPackaged: false, env: { ...dev, ELECTRON_RENDERER_URL: url } }), url).toBeNull()
    }
    expect(devServerUrl({ isPackaged: false, env: { ...dev, ELECTRON_RENDERER_URL: 'http://127.0.0.1:5174' } })).toBe('http://127.0.0.1:5174/')
  })

  it('trusts only the app page itself (any route of it), on the app scheme', () => {
    expect(APP_URL).toBe(`${APP_SCHEME}://app/index.html`)
    expect(isAppUrl(`${APP_URL}#/workspaces/1`, APP_URL)).toBe(true)
    for (const url of ['file:///out/renderer/index.html', `${APP_SCHEME}://other/index.html`, `${APP_SCHEME}://app/other.html`, 'https://app/index.html', `${APP_SCHEME}://u:p@app/index.html`, 'garbage']) {
      expect(isAppUrl(url, APP_URL), url).toBe(false)
    }
    expect(APP_SCHEME_PRIVILEGES).toEqual({ standard: true, secure: true, supportFetchAPI: true, codeCache: true })
    expect(APP_SCHEME_PRIVILEGES).not.toHaveProperty('bypassCSP')
    expect(APP_SCHEME_PRIVILEGES).not.toHaveProperty('corsEnabled')
  })
})

describe('links that leave the app', () => {
  it('opens nothing externally by default: the app shows no external documentation link', () => {
    expect(EXTERNAL_LINK_ALLOWLIST).toEqual([])
    expect(externalLinkAllowed('https://example.com/')).toBe(false)
  })

  it('allows exactly the allowlisted https hosts and paths', () => {
    const allow = ['https://docs.example.org/harness/']
    expect(externalLinkAllowed('https://docs.example.org/harness/guide.html#x', allow)).toBe(true)
    expect(externalLinkAllowed('https://docs.example.org/harness', allow)).toBe(false)
    for (const url of [
      'http://docs.example.org/harness/guide.html',
      'https://docs.example.org/other/',
      'https://docs.example.org.evil.example/harness/',
      'https://evil.example@docs.example.org/harness/',
      'https://docs.example.org:8443/harness/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://host/share',
      'not a url',
    ]) {
      expect(externalLinkAllowed(url, allow), url).toBe(false)
    }
  })
})

describe('the application menu', () => {
  const roles = (items: MenuItemConstructorOptions[]): string[] =>
    items.flatMap((i) => [...(i.role ? [String(i.role)] : []), ...(Array.isArray(i.submenu) ? roles(i.submenu) : [])])

  it('offers DevTools only in development', () => {
    const base = { platform: 'linux' as const, version: '1.2.3', openDataFolder: () => undefined }
    const production = roles(appMenuTemplate({ ...base, development: false }))
    expect(production).not.toContain('toggleDevTools')
    expect(production).not.toContain('forceReload')
    expect(production).toEqual(expect.arrayContaining(['reload', 'quit', 'editMenu', 'togglefullscreen']))
    const development = roles(appMenuTemplate({ ...base, development: true }))
    expect(development).toContain('toggleDevTools')
    expect(roles(appMenuTemplate({ ...base, platform: 'darwin', development: false }))).toEqual(expect.arrayContaining(['appMenu', 'close']))
  })

  it('opens the data folder from File', () => {
    let opened = 0
    const file = appMenuTemplate({ platform: 'linux', development: false, version: '1', openDataFolder: () => (opened += 1) })[0]!
    const item = (file.submenu as MenuItemConstructorOptions[]).find((i) => i.label === 'Open Data Folder')!
    ;(item.click as () => void)()
    expect(opened).toBe(1)
  })
})

describe('the app scheme handler', () => {
  const tmp = tempDir()
  afterAll(() => tmp.cleanup())
  const dir = join(tmp.dir, 'renderer')
  mkdirSync(join(dir, 'assets'), { recursive: true })
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>app</title>')
  writeFileSync(join(dir, 'assets', 'main.js'), 'console.log(1)')
  writeFileSync(join(tmp.dir, 'secret.txt'), 'secret')
  const get = (url: string, method = 'GET') => rendererProtocolResponse({ url, method }, dir)

  it('serves the renderer with the CSP header and the right types', async () => {
    for (const url of [APP_URL, `${APP_SCHEME}://app/`, `${APP_URL}?x=1#/runs`]) {
      const res = await get(url)
      expect(res.status, url).toBe(200)
      expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY)
      expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/)
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expect(await res.text()).toMatch(/<title>app<\/title>/)
    }
    const js = await get(`${APP_SCHEME}://app/assets/main.js`)
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(await js.text()).toBe('console.log(1)')
    const head = await get(APP_URL, 'HEAD')
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
  })

  it('refuses other hosts, methods and every way out of the renderer folder, still with the CSP', async () => {
    const cases: Array<[string, string, number]> = [
      [`${APP_SCHEME}://app/../secret.txt`, 'GET', 404],
      [`${APP_SCHEME}://app/assets/%2e%2e/%2e%2e/secret.txt`, 'GET', 404],
      [`${APP_SCHEME}://app/..%2fsecret.txt`, 'GET', 404],
      [`${APP_SCHEME}://app/..%5csecret.txt`, 'GET', 404],
      [`${APP_SCHEME}://app/index.html%00.js`, 'GET', 404],
      [`${APP_SCHEME}://app/%E0%A4%A`, 'GET', 400],
      [`${APP_SCHEME}://app/missing.js`, 'GET', 404],
      [`${APP_SCHEME}://other/index.html`, 'GET', 404],
      [`https://app/index.html`, 'GET', 404],
      [APP_URL, 'POST', 405],
    ]
    for (const [url, method, status] of cases) {
      const res = await get(url, method)
      expect(res.status, `${method} ${url}`).toBe(status)
      expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY)
      expect(await res.text()).not.toMatch(/secret/)
    }
  })
})
