import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const hasChromium = existsSync(CHROMIUM)
/** The limit of a browser wait: long enough that only a hang reaches it. */
export const HANG_GUARD_MS = 300_000
export const OUTPUT_DIR = join(process.cwd(), 'test-output')

/** Browser tests run in CI without exception; locally they skip with a message when Chromium is missing. */
export function requireChromium(): boolean {
  if (hasChromium) return true
  if (process.env.CI) throw new Error(`Chromium not found at ${CHROMIUM}: .ci/run installs Debian's chromium package`)
  console.warn(`Skipping browser tests: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`)
  return false
}

export function launchChromium(): Promise<Browser> {
  mkdirSync(OUTPUT_DIR, { recursive: true })
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  })
}

export interface ServedApp {
  url: string
  origin: string
  token: string
  process: ChildProcess
  stop(): Promise<void>
}

/** One API call over HTTP, as the browser makes it (the per-launch token in the header); an error answer throws its message. */
export async function callApi<T = unknown>(app: Pick<ServedApp, 'origin' | 'token'>, route: string, input: unknown): Promise<T> {
  const res = await fetch(`${app.origin}/api/call/${route}`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${app.token}` }, body: JSON.stringify(input) })
  const body = (await res.json()) as { data?: T; error?: { message: string } }
  if (!res.ok) throw new Error(`${route}: ${body.error?.message ?? res.status}`)
  return body.data as T
}

/** Starts the built browser-mode server (`out/main/serve.js`) as a user would, and reads the URL it prints; `port` 0 picks a free one. */
export function serveBuiltApp(dataDir: string, port = 0): Promise<ServedApp> {
  const entry = join(process.cwd(), 'out', 'main', 'serve.js')
  if (!existsSync(entry)) throw new Error('No build at out/: run `npm run build` (npm test does it first)')
  const child = spawn(process.execPath, [entry, '--port', String(port), '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  return new Promise((resolve, reject) => {
    // Not a wait: the URL line (or the process's exit) ends it. This only keeps a server that never
    // starts from outliving the test run (a loaded 2-core machine took over 30 s to start it).
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`server did not print a URL within 600 s:\n${output}`))
    }, 600_000)
    const onData = (chunk: Buffer): void => {
      output += chunk.toString()
      const match = /(http:\/\/127\.0\.0\.1:\d+)\/\?token=([\w-]+)/.exec(output)
      if (!match) return
      clearTimeout(timer)
      resolve({
        url: match[0],
        origin: match[1]!,
        token: match[2]!,
        process: child,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done()
            child.once('exit', () => done())
            child.kill('SIGTERM')
          }),
      })
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)))
  })
}

export interface BrowserApp {
  app: ServedApp
  browser: Browser
  page: Page
}

/** The built app served on a fresh data folder and one Chromium page for it (page errors go to the test's log). */
export async function openBrowserApp(dataDir: string, options: { width?: number; height?: number; acceptDownloads?: boolean } = {}): Promise<BrowserApp> {
  const app = await serveBuiltApp(dataDir)
  const browser = await launchChromium()
  const page = await browser.newPage({ viewport: { width: options.width ?? 1280, height: options.height ?? 900 }, ...(options.acceptDownloads ? { acceptDownloads: true } : {}) })
  page.on('pageerror', (err) => console.error('page error:', err))
  // Playwright's 30 s default would make every wait a speed assertion on a loaded machine: waits only catch hangs.
  page.setDefaultTimeout(HANG_GUARD_MS)
  return { app, browser, page }
}

/** Closes what openBrowserApp opened, whatever part of it a failed beforeAll got to. */
export async function closeBrowserApp(opened: { app?: ServedApp; browser?: Browser }): Promise<void> {
  await opened.browser?.close()
  await opened.app?.stop()
}
