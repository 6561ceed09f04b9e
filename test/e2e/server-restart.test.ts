/// <reference lib="dom" />
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { STREAM_PROBLEMS } from '../../renderer/src/api/http-bridge'
import { callApi, closeBrowserApp, openBrowserApp, OUTPUT_DIR, requireChromium, serveBuiltApp, type ServedApp } from '../helpers/browser'
import { tempDir } from '../helpers/services'

const run = requireChromium()

/**
 * Browser mode on a headless machine: the server stops while a page is open, and starts again (a new launch,
 * a new token). The page says it is reconnecting, then that the server has a new token and which URL to open,
 * instead of showing stale state with no live updates; the new URL brings them back.
 */
describe.runIf(run)('a browser page whose server stops and starts again', () => {
  const tmp = tempDir('harness-lab-e2e-restart-')
  const data = join(tmp.dir, 'data')
  let first: ServedApp
  let second: ServedApp | undefined
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    ;({ app: first, browser, page } = await openBrowserApp(data))
  })
  afterAll(async () => {
    await closeBrowserApp({ app: second ?? first, browser })
    await first?.stop()
    tmp.cleanup()
  })

  it('says it is reconnecting, then that the server has a new token, and the printed URL brings live updates back', async () => {
    await page.goto(first.url)
    await page.locator('[data-test=new-workspace-name]').waitFor()
    const banner = page.locator('[data-test=stream-problem]')
    expect(await banner.count()).toBe(0)

    await first.stop()
    await banner.filter({ hasText: STREAM_PROBLEMS.reconnecting }).waitFor()

    second = await serveBuiltApp(data, Number(new URL(first.origin).port))
    expect(second.token).not.toBe(first.token)
    await banner.filter({ hasText: STREAM_PROBLEMS.restarted }).waitFor()
    await page.screenshot({ path: join(OUTPUT_DIR, 'server-restarted.png') })

    // The printed URL: the page is live again. A job started elsewhere (over the API, not by this page) appears on the open Jobs page.
    await page.goto(second.url)
    await page.locator('[data-test=new-workspace-name]').waitFor()
    // The Jobs page's own read of the list answered first: what arrives after it comes through the event stream.
    const listed = page.waitForResponse((r) => r.url().endsWith('/api/call/job.list'))
    await page.click('[data-test=nav-jobs]')
    await listed
    const workspace = await callApi<{ id: string }>(second, 'workspace.create', { name: 'After restart' })
    const job = await callApi<{ id: string }>(second, 'job.start', { kind: 'db.maintenance', workspaceId: workspace.id, params: { vacuum: true } })
    await page.locator(`[data-test=jobs-history] li.job[data-job-id="${job.id}"][data-status=done]`).waitFor()
    expect(await banner.count()).toBe(0)
  })
})
