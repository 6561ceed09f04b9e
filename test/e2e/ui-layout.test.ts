/// <reference lib="dom" />
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callApi, closeBrowserApp, OUTPUT_DIR, openBrowserApp, requireChromium, type ServedApp } from '../helpers/browser'
import { tempDir } from '../helpers/services'

const run = requireChromium()

/**
 * The layout defects of issue 21 at a 1440 x 900 window: a closed dialog on the Runs page, finished
 * evaluation jobs as full cards above the results, the run table wider than the window, a blank Graph
 * page before a search, cramped inputs on the Models page. Every wait is on the page's state.
 */
describe.runIf(run)('page layout at 1440 x 900 (browser mode)', () => {
  const tmp = tempDir('harness-lab-e2e-layout-')
  let app: ServedApp
  let browser: Browser
  let page: Page
  let workspaceId = ''

  const call = (route: string, input: unknown): Promise<unknown> => callApi(app, route, input)

  beforeAll(async () => {
    ;({ app, browser, page } = await openBrowserApp(join(tmp.dir, 'data'), { width: 1440 }))
  })
  afterAll(async () => {
    await closeBrowserApp({ app, browser })
    tmp.cleanup()
  })

  it('Runs page: no box from the closed dialog, finished jobs on one line each, the run table within the window', async () => {
    await page.goto(app.url)
    await page.fill('[data-test=new-workspace-name]', 'Layout')
    await page.click('[data-test=create-workspace]')
    await page.locator('tr[data-workspace="Layout"] [data-test=open]').click()
    await page.click('[data-test=create-demo]')
    await page.locator('[data-test=corpus-counts] [data-count=documents] dd').filter({ hasText: /^[1-9]/ }).waitFor({ timeout: 600_000 })
    workspaceId = /workspaces\/([^/?#]+)/.exec(page.url())![1]!
    const setId = ((await call('questions.sets', { workspaceId })) as Array<{ id: number }>)[0]!.id
    // Three finished evaluations: three job lines, three rows with every metric column.
    for (const [environment, policy] of [['graph-menu', 'greedy'], ['graph-menu', 'oracle'], ['stateful', 'scripted-tools']] as const) {
      await call('job.start', { kind: 'eval.run', workspaceId, params: { name: `${policy} in ${environment}`, environment, policy: { kind: 'scripted', name: policy }, questionSetId: setId, limit: 3 } })
    }
    await page.click('[data-test=nav-runs]')
    await page.waitForFunction(() => document.querySelectorAll('[data-test=runs-table] tbody tr[data-status=done]').length === 3, null, { timeout: 600_000 })
    await page.waitForFunction(() => document.querySelectorAll('[data-test=finished-jobs] li[data-status=done]').length === 3, null, { timeout: 600_000 })
    await page.screenshot({ path: join(OUTPUT_DIR, 'layout-runs.png') })
    await page.screenshot({ path: join(OUTPUT_DIR, 'layout-runs-full.png'), fullPage: true })

    // The prune dialog is closed: it takes no room and draws nothing.
    const dialog = page.locator('dialog[data-test=prune-dialog]')
    expect(await dialog.isVisible()).toBe(false)
    expect(await dialog.boundingBox()).toBeNull()

    // Finished jobs are one compact line each, without a progress bar; nothing is left as a card.
    const lines = page.locator('[data-test=finished-jobs] li')
    for (let i = 0; i < 3; i++) expect((await lines.nth(i).boundingBox())!.height).toBeLessThanOrEqual(32)
    expect(await page.locator('[data-test=finished-jobs] [role=progressbar]').count()).toBe(0)
    expect(await page.locator('main.content [data-test=running-jobs]').count()).toBe(0)

    // The page never scrolls sideways; the results table scrolls inside its own frame if it must.
    const widths = await page.evaluate(() => {
      const frame = document.querySelector('[data-test=runs-table]')!.closest('.table-scroll')!
      return { page: document.documentElement.scrollWidth, window: window.innerWidth, table: frame.getBoundingClientRect().right, hidden: frame.scrollWidth - frame.clientWidth }
    })
    expect(widths.page).toBeLessThanOrEqual(widths.window)
    expect(widths.table).toBeLessThanOrEqual(widths.window)
    // With the default columns, every column is in view at 1440 px: nothing hides behind a scroll bar.
    expect(widths.hidden).toBe(0)

    // A run's own page: its episode table stays within the window too.
    await page.locator('[data-test=runs-table] tbody tr').last().locator('a').first().click()
    await page.locator('[data-test=episodes-table] tbody tr').first().waitFor({ timeout: 600_000 })
    await page.screenshot({ path: join(OUTPUT_DIR, 'layout-run.png') })
    const runWidths = await page.evaluate(() => {
      const table = document.querySelector('[data-test=episodes-table]')!
      const frame = table.closest('.table-scroll')!
      return { page: document.documentElement.scrollWidth, window: window.innerWidth, table: frame.getBoundingClientRect().right, hidden: frame.scrollWidth - frame.clientWidth }
    })
    expect(runWidths.hidden).toBe(0)
    expect(runWidths.page).toBeLessThanOrEqual(runWidths.window)
    expect(runWidths.table).toBeLessThanOrEqual(runWidths.window)
  })

  it('Graph page: statistics and the best-connected entity before any search', async () => {
    await page.goto(`${app.origin}/#/workspaces/${workspaceId}/graph`)
    const note = page.locator('[data-test=graph-start-note]')
    await note.waitFor({ timeout: 600_000 })
    await page.locator('[data-test=graph-count]').filter({ hasText: /^[1-9]\d* \/ \d+ nodes/ }).waitFor({ timeout: 600_000 })
    expect(await page.locator('[data-test=graph-search-input]').inputValue()).toBe('')
    // Never a date or number hub: the note names its type.
    expect(await note.textContent()).not.toMatch(/\((DATE|CARDINAL|ORDINAL|QUANTITY|PERCENT|MONEY|TIME),/)
    await page.screenshot({ path: join(OUTPUT_DIR, 'layout-graph.png') })
  })

  it('Models page: the path and URI inputs fill their row', async () => {
    await page.click('[data-test=nav-models]')
    const path = page.locator('[data-test=model-path]')
    await path.waitFor()
    expect((await path.boundingBox())!.width).toBeGreaterThanOrEqual(400)
    expect((await page.locator('[data-test=model-uri]').boundingBox())!.width).toBeGreaterThanOrEqual(400)
    await page.screenshot({ path: join(OUTPUT_DIR, 'layout-models.png') })
    await page.screenshot({ path: join(OUTPUT_DIR, 'layout-models-full.png'), fullPage: true })
  })
})
