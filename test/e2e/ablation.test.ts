/// <reference lib="dom" />
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeBrowserApp, openBrowserApp, OUTPUT_DIR, requireChromium, type ServedApp } from '../helpers/browser'
import { tempDir } from '../helpers/services'

const run = requireChromium()

/**
 * The ablation matrix through the UI in Chromium: a base (graph-menu, greedy) and two rows (the oracle
 * policy, the free-query environment) on the demo world, run as one job; the table and a chart appear,
 * the table exports as CSV and a chart as SVG (browser downloads), a scatter point opens the two
 * episodes side by side in the Trajectory view, and the arrow keys step through them.
 */
describe.runIf(run)('ablation matrix in Chromium (browser mode)', () => {
  const tmp = tempDir('harness-lab-e2e-ablation-')
  let app: ServedApp
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    ;({ app, browser, page } = await openBrowserApp(join(tmp.dir, 'data'), { acceptDownloads: true }))
  })
  afterAll(async () => {
    await closeBrowserApp({ app, browser })
    tmp.cleanup()
  })

  const downloaded = async (click: () => Promise<void>): Promise<{ name: string; text: string }> => {
    const [download] = await Promise.all([page.waitForEvent('download'), click()])
    const file = join(tmp.dir, download.suggestedFilename())
    await download.saveAs(file)
    return { name: download.suggestedFilename(), text: readFileSync(file, 'utf8') }
  }

  it('runs a two-row ablation on the demo world and shows its table and charts', async () => {
    await page.goto(app.url)
    await page.fill('[data-test=new-workspace-name]', 'Ablation')
    await page.click('[data-test=create-workspace]')
    await page.locator('tr[data-workspace="Ablation"] [data-test=open]').click()
    await page.click('[data-test=create-demo]')
    await page.locator('[data-test=corpus-counts] [data-count=documents] dd').filter({ hasText: /^[1-9]/ }).waitFor({ timeout: 600_000 })

    await page.click('[data-test=open-ablations]')
    const builder = page.locator('[data-test=ablation-builder]')
    await builder.waitFor()
    await builder.locator('[data-test=ablation-environment]').selectOption('graph-menu')
    await builder.locator('[data-test=ablation-policy]').selectOption('scripted:greedy')
    await builder.locator('[data-test=ablation-limit]').fill('5')
    await builder.locator('[data-test=ablation-seeds]').fill('1')
    await builder.locator('label[data-row="policy:scripted:oracle"] input').check()
    await builder.locator('label[data-row="env:free-query"] input').check()
    // A LoRA row without a registered adapter says why it cannot be chosen.
    expect(await builder.locator('label[data-row="lora:none"] [data-test=row-unavailable]').textContent()).toMatch(/LoRA adapter/)
    await builder.locator('[data-test=ablation-name]').fill('oracle and free query')
    await builder.locator('[data-test=ablation-run]').click()

    const current = page.locator('[data-test=ablation-current]')
    await page.locator('[data-test=ablation-current][data-status=done]').waitFor({ timeout: 600_000 })
    expect(await current.locator('[data-test=ablation-ran-on]').textContent()).toMatch(/corpus \d+files-sha256:/)
    const matrix = page.locator('[data-test=ablation-matrix]')
    await matrix.waitFor()
    expect(await matrix.locator('tbody tr').count()).toBe(3)
    // The judged metric (SP F1 on the demo's sentence gold) opens the table; the headline metrics follow; the rest on demand.
    const headers = await matrix.locator('thead th[data-metric]').evaluateAll((ths) => ths.map((th) => th.getAttribute('data-metric')))
    expect(headers[0]).toBe('sp.f1')
    expect(headers).toContain('answer.em.official')
    expect(headers.length).toBeLessThan(10)
    expect(await matrix.locator('thead').textContent()).not.toContain('SP recall')
    await page.locator('[data-test=ablation-columns] summary').click()
    await page.locator('[data-test=ablation-columns] input[data-metric="sp.recall"]').check()
    expect(await matrix.locator('thead').textContent()).toContain('SP recall')
    // The oracle's SP recall difference against the base, in percentage points.
    const oracleSp = matrix.locator('tr[data-label="scripted: oracle"] td[data-metric="sp.recall"]')
    expect(await oracleSp.locator('[data-test=difference]').textContent()).toMatch(/^[+−±]\d+\.\d pp/)
    await page.locator('[data-test=ablation-charts] [data-test=difference-chart]').waitFor()
    await page.selectOption('[data-test=chart-metric]', 'sp.recall')
    await page.locator('[data-test=paired-scatter]').waitFor()
    expect(Number(await page.locator('[data-test=paired-scatter]').getAttribute('data-points'))).toBe(5)
    await page.screenshot({ path: join(OUTPUT_DIR, 'ablation.png'), fullPage: true })
  }, 600_000)

  it('exports the table as CSV and a chart as SVG', async () => {
    const csv = await downloaded(() => page.click('[data-test=export-csv]'))
    expect(csv.name).toMatch(/\.csv$/)
    const lines = csv.text.trim().split('\n')
    expect(lines[0]).toMatch(/^row,label,group,environment,metric,metric_label,mean,ci_lower,ci_upper/)
    expect(lines.some((l) => l.startsWith('1,scripted: oracle,') && l.includes(',sp.recall,'))).toBe(true)
    const svg = await downloaded(() => page.click('[data-test=export-svg-differences]'))
    expect(svg.name).toMatch(/\.svg$/)
    expect(svg.text).toMatch(/^<\?xml/)
    expect(svg.text).toContain('<svg')
    expect(svg.text).toContain('oracle')
  })

  it('opens a trajectory from the scatter beside the base episode and steps through it with the keyboard', async () => {
    const point = page.locator('[data-test=scatter-point]').last()
    const episode = await point.getAttribute('data-episode')
    await point.click()
    await page.waitForURL(new RegExp(`/episodes/${episode}\\?compare=\\d+`))
    await page.locator('[data-test=compare-panes]').waitFor()
    await page.locator('[data-test=trajectory-steps] li.step').first().waitFor()
    const steps = await page.locator('[data-test=step-counter]').textContent()
    const total = Number(/\/ (\d+)/.exec(steps ?? '')?.[1])
    expect(total).toBeGreaterThan(1)
    expect(steps).toBe(`Step 1 / ${total}`)
    await page.keyboard.press('ArrowRight')
    await page.locator('[data-test=step-counter]').filter({ hasText: `Step 2 / ${total}` }).waitFor()
    await page.keyboard.press('End')
    await page.locator('[data-test=step-counter]').filter({ hasText: `Step ${total} / ${total}` }).waitFor()
    await page.keyboard.press('Home')
    await page.locator('[data-test=step-counter]').filter({ hasText: `Step 1 / ${total}` }).waitFor()
  })
})
