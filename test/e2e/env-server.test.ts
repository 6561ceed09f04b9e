/// <reference lib="dom" />
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeBrowserApp, openBrowserApp, OUTPUT_DIR, requireChromium, type ServedApp } from '../helpers/browser'
import { tempDir } from '../helpers/services'

const run = requireChromium()

/**
 * The environment server's control on the Policies page in Chromium: started for a demo workspace, its URL
 * and token shown; a trainer (this test, over HTTP) opens and steps an episode and the live counters
 * follow; a bad request shows as an error; Stop ends it.
 */
describe.runIf(run)('environment server control in Chromium (browser mode)', () => {
  const tmp = tempDir('harness-lab-e2e-env-server-')
  let app: ServedApp
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    ;({ app, browser, page } = await openBrowserApp(join(tmp.dir, 'data')))
  })
  afterAll(async () => {
    await closeBrowserApp({ app, browser })
    tmp.cleanup()
  })

  it('starts from the Policies page, shows URL, token and live counters, and stops', async () => {
    await page.goto(app.url)
    await page.fill('[data-test=new-workspace-name]', 'Trainer')
    await page.click('[data-test=create-workspace]')
    await page.locator('tr[data-workspace="Trainer"] [data-test=open]').click()
    await page.click('[data-test=create-demo]')
    await page.locator('[data-test=corpus-counts] [data-count=documents] dd').filter({ hasText: /^[1-9]/ }).waitFor({ timeout: 600_000 })

    await page.click('[data-test=nav-models]')
    await page.locator('[data-test=env-server-start]').waitFor()
    await page.fill('[data-test=env-server-port]', '0')
    await page.click('[data-test=env-server-start]')
    const url = (await page.locator('[data-test=env-server-url]').textContent({ timeout: 600_000 }))!.trim()
    const token = (await page.locator('[data-test=env-server-token-shown]').textContent())!.trim()
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(await page.locator('[data-test=env-server-open]').textContent()).toBe('0')

    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
      return (await res.json()) as Record<string, any>
    }
    const created = await post('/v1/episodes', { environment: 'graph-menu', split: 1, index: 0, seed: 1 })
    await post(`/v1/episodes/${created.episode_id}/step`, { menu_id: created.menu[0].id })
    await post('/v1/episodes', { environment: 'no-such-env', question_id: 1 })
    // The panel re-reads the counters while the server runs.
    // (Both counters: a re-read may land between the step and the refused create.)
    await page.waitForFunction(() => document.querySelector('[data-test=env-server-steps]')?.textContent === '1' && document.querySelector('[data-test=env-server-errors]')?.textContent === '1', undefined, { timeout: 600_000 })
    expect(await page.locator('[data-test=env-server-open]').textContent()).toBe('1')
    expect(await page.locator('[data-test=env-server-errors]').textContent()).toBe('1')
    await page.screenshot({ path: join(OUTPUT_DIR, 'env-server.png'), fullPage: true })

    await page.click('[data-test=env-server-stop]')
    await page.locator('[data-test=env-server-start]').waitFor()
    await expect(fetch(`${url}/v1/health`)).rejects.toThrow()
  }, 600_000)
})
