/// <reference lib="dom" />
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callApi, closeBrowserApp, HANG_GUARD_MS, launchChromium, OUTPUT_DIR, requireChromium, serveBuiltApp, type ServedApp } from '../helpers/browser'
import { tempDir } from '../helpers/services'

const run = requireChromium()

/**
 * Issue 33 at 1440 x 900, clicked through as a newcomer would: the first screen offers the demo world,
 * every section of a workspace is one click away, the Jobs page queues, cancels and keeps history, the
 * forms agree on their defaults, and the training charts carry smoothing, a picker, an overlay and tick
 * labels fit for their quantity. Every wait is on the page's state; screenshots go to test-output/.
 */
describe.runIf(run)('workspace sections, jobs and charts at 1440 x 900 (browser mode)', () => {
  const tmp = tempDir('harness-lab-e2e-sections-')
  let app: ServedApp
  let browser: Browser
  let page: Page
  let workspaceId = ''
  const failed: string[] = []
  const shot = (name: string) => page.screenshot({ path: join(OUTPUT_DIR, `sections-${name}.png`) })
  const call = <T = unknown>(route: string, input: unknown): Promise<T> => callApi<T>(app, route, input)
  /** Nothing on the page is wider than the window. */
  const fitsWindow = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)

  beforeAll(async () => {
    app = await serveBuiltApp(join(tmp.dir, 'data'))
    browser = await launchChromium()
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    page.setDefaultTimeout(HANG_GUARD_MS)
    page.on('pageerror', (err) => console.error('page error:', err))
    // Requests that fail (a 404 favicon, an event stream the page aborts) are collected and checked below.
    page.on('requestfailed', (r) => failed.push(`${r.url()} ${r.failure()?.errorText ?? ''}`))
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.url()} ${r.status()}`)
    })
  })
  afterAll(async () => {
    await closeBrowserApp({ app, browser })
    tmp.cleanup()
  })

  it('the first screen offers the demo world, which arrives split with every section one click away', async () => {
    await page.goto(app.url)
    await page.locator('[data-test=first-run]').waitFor()
    // The icon is inline (data:), so loading the page asks the server for no favicon.
    expect(failed.filter((f) => f.includes('favicon'))).toEqual([])
    expect(await page.locator('[data-test=first-run]').textContent()).toContain('demo world')
    await shot('first-screen')
    await page.click('[data-test=create-demo-workspace]')
    await page.locator('[data-test=corpus-counts] [data-count=documents] dd').filter({ hasText: /^[1-9]/ }).waitFor({ timeout: 600_000 })
    workspaceId = /workspaces\/([^/?#]+)/.exec(page.url())![1]!
    const nav = page.locator('[data-test=section-nav]')
    expect(await nav.locator('a').allTextContents()).toEqual(['Demo world', 'Corpus', 'Graph', 'Questions', 'Runs', 'Training', 'Ablations', 'Findings', 'Rewards'])
    await shot('workspace')

    // Every section, from the bar, lights its entry and fits the window.
    for (const section of ['corpus', 'graph', 'questions', 'runs', 'training', 'ablations', 'findings', 'rewards']) {
      await nav.locator(`[data-test=nav-${section}]`).click()
      await page.waitForFunction((s) => location.hash.endsWith(`/${s}`) && document.querySelector(`[data-test=nav-${s}]`)?.classList.contains('active'), section)
      await page.locator('.page-head h2').waitFor()
      if (section === 'questions') await page.locator('[data-test=split-count-test]').waitFor()
      if (section === 'training') await page.locator('[data-test=train-steps]').waitFor()
      if (section === 'graph') await page.locator('[data-test=graph-node]').first().waitFor()
      await shot(section)
      expect([section, await fitsWindow()]).toEqual([section, true])
    }
    // The demo's test and held-out (dev) splits are large enough for a CI worth reading.
    const [set] = await call<Array<{ id: number }>>('questions.sets', { workspaceId })
    const detail = await call<{ splits: Array<{ name: string; count: number }>; unassigned: number }>('questions.set', { workspaceId, setId: set!.id })
    expect(detail.splits.find((s) => s.name === 'test')!.count).toBeGreaterThanOrEqual(20)
    expect(detail.splits.find((s) => s.name === 'dev')!.count).toBeGreaterThanOrEqual(20)
    expect(detail.unassigned).toBe(0)
  })

  it('evaluation and training forms agree on graph-menu; Runs shows SP F1 by default', async () => {
    await page.click('[data-test=nav-runs]')
    await page.locator('[data-test=eval-launcher]').waitFor()
    expect(await page.locator('[data-test=eval-environment]').inputValue()).toBe('graph-menu')
    await page.selectOption('[data-test=eval-policy]', 'greedy')
    await page.selectOption('[data-test=eval-split]', 'test')
    await page.click('[data-test=eval-start]')
    await page.locator('[data-test=runs-table] tr[data-status=done]').first().waitFor({ timeout: 600_000 })
    expect(await page.locator('[data-test=runs-table] thead th[data-metric="sp.f1"]').count()).toBe(1)
    expect(await page.locator('[data-test=runs-table] thead th[data-metric="sp.recall"]').count()).toBe(0)
    await shot('runs-evaluated')

    await page.click('[data-test=nav-training]')
    const launcher = page.locator('[data-test=training-launcher]')
    await launcher.locator('[data-test=train-steps]').waitFor()
    expect(await launcher.locator('[data-test=train-environment]').inputValue()).toBe('graph-menu')
    expect(await launcher.locator('[data-test=train-split]').inputValue()).toBe('train')
    expect(await launcher.locator('[data-test=heldout-split]').inputValue()).toBe('dev')
  })

  it('the Jobs page shows the queue with progress, cancels a job and keeps the history, naming the workspace on a deep link', async () => {
    // A run long enough to cancel: it is still running when Cancel is pressed (the status is waited on, not timed).
    await page.fill('[data-test=train-steps]', '500')
    await page.fill('[data-test=train-name]', 'to cancel')
    await page.click('[data-test=train-start]')
    await page.click('[data-test=nav-jobs]')
    // Running and two steps in: the run and its first steps are stored, so it stays listed (cancelled) on the Training page.
    const running = page.locator('[data-test=jobs-active] li[data-status=running]', { hasText: /Step ([3-9]|\d\d+)\/500/ })
    await running.first().waitFor({ timeout: 600_000 })
    expect(await page.locator('[data-test=active-jobs]').textContent()).toMatch(/1 running/)
    expect(await running.first().locator('[role=progressbar]').count()).toBe(1)
    await shot('jobs-running')
    // A deep link reloads the page: the job still names its (live) workspace.
    await page.goto(`${app.origin}/#/jobs`)
    await page.reload()
    await page.locator('[data-test=jobs-active] li[data-status=running]').first().waitFor()
    // The Jobs page keeps the last workspace's sections one click away.
    expect(await page.locator('[data-test=section-nav] a').first().textContent()).toBe('Demo world')
    const line = (await page.locator('[data-test=jobs-active] li').first().textContent()) ?? ''
    expect(line).toContain('Demo world')
    expect(line).not.toContain('deleted workspace')
    await page.locator('[data-test=jobs-active] li').first().locator('button', { hasText: 'Cancel' }).click()
    await page.locator('[data-test=jobs-history] li[data-status=cancelled]').first().waitFor({ timeout: 600_000 })
    const history = await page.locator('[data-test=jobs-history] li').allTextContents()
    expect(history.some((h) => /Training run\s*Demo world\s*cancelled/.test(h))).toBe(true)
    expect(history.some((h) => /Evaluation\s*Demo world\s*done/.test(h))).toBe(true)
    expect(history.some((h) => /Corpus ingest\s*Demo world\s*done/.test(h))).toBe(true)
    await shot('jobs')
  })

  it('training charts: held-out first, ticks fit their quantity, one x axis, smoothing, a chart picker and another run overlaid', async () => {
    await page.click('[data-test=nav-training]')
    const launcher = page.locator('[data-test=training-launcher]')
    await launcher.locator('[data-test=train-steps]').waitFor()
    await launcher.locator('[data-test=train-steps]').fill('6')
    await launcher.locator('[data-test=train-group-size]').fill('2')
    await launcher.locator('[data-test=train-questions-per-step]').fill('2')
    await launcher.locator('[data-test=train-eval-interval]').fill('3')
    await launcher.locator('[data-test=train-name]').fill('six steps')
    await launcher.locator('[data-test=train-start]').click()
    await page.locator('[data-test=training-run][data-status=done]').waitFor({ timeout: 600_000 })
    const charts = page.locator('[data-test=training-charts] figure')
    expect(await charts.first().getAttribute('data-test')).toBe('chart-held-out')
    expect(await charts.first().locator('figcaption').textContent()).toContain('of the greedy head')

    // Tick labels: distinct on every chart, no three-decimal zeros, counts without padding zeros.
    for (const fig of await charts.all()) {
      const ticks = await fig.locator('[data-test=y-tick]').allTextContents()
      expect(new Set(ticks).size).toBe(ticks.length)
      expect(ticks.filter((t) => /\.\d*0$/.test(t.replace(/%| ms/, '')))).toEqual([])
    }
    // One x axis for every chart: the held-out chart's ticks are the reward chart's.
    expect(await page.locator('[data-test=chart-held-out] [data-test=x-tick]').allTextContents()).toEqual(await page.locator('[data-test=chart-reward] [data-test=x-tick]').allTextContents())

    // Smoothing keeps the raw line faint under the EMA.
    expect(await page.locator('[data-test=chart-reward] [data-test=raw-line]').count()).toBe(0)
    await page.locator('[data-test=chart-smoothing]').fill('0.6')
    await page.locator('[data-test=chart-reward] [data-test=raw-line]').first().waitFor()
    expect(await page.locator('[data-test=chart-smoothing-value]').textContent()).toBe('0.60')

    // The picker hides a chart and shows it again.
    await page.locator('[data-test=chart-picker] summary').click()
    await page.locator('[data-test=chart-picker] input[data-chart=equivalence]').uncheck()
    await page.locator('[data-test=chart-equivalence]').waitFor({ state: 'detached' })
    await page.locator('[data-test=chart-picker] input[data-chart=equivalence]').check()
    await page.locator('[data-test=chart-equivalence]').waitFor()
    await page.locator('[data-test=chart-picker] summary').click()

    // Another run overlaid: its series are drawn dashed over this run's.
    const other = await page.locator('[data-test=training-runs] tr[data-run]').filter({ hasText: 'to cancel' }).getAttribute('data-run')
    await page.selectOption('[data-test=chart-overlay]', other!)
    await page.locator('[data-test=chart-reward] g[data-overlay=true] circle').first().waitFor({ state: 'attached' })
    expect(await page.locator('[data-test=chart-reward] g[data-overlay=true] circle').count()).toBeGreaterThan(0)
    // The stopped run spans the steps it has: the axis stays this run's 0..6, and legends name metrics by their labels.
    expect(await page.locator('[data-test=chart-reward] [data-test=x-tick]').allTextContents()).toEqual(['0', '1', '2', '3', '4', '5', '6'])
    expect(await page.locator('[data-test=chart-equivalence] .legend').textContent()).not.toContain('equivalenceClasses')
    await page.locator('[data-test=training-run]').scrollIntoViewIfNeeded()
    await page.locator('[data-test=training-charts]').scrollIntoViewIfNeeded()
    await shot('training-charts')

    // Rollouts of a step stay within the window.
    await page.selectOption('[data-test=rollout-step]', '0')
    await page.locator('[data-test=rollouts-table] tbody tr').first().waitFor()
    await page.locator('[data-test=rollouts-table]').scrollIntoViewIfNeeded()
    await shot('training-rollouts')
    expect(await fitsWindow()).toBe(true)
    const right = await page.locator('[data-test=rollouts-table]').evaluate((t) => t.closest('.table-scroll')!.getBoundingClientRect().right)
    expect(right).toBeLessThanOrEqual(1440)
  })

  it('no failed request on the way: no favicon 404, no aborted event stream while moving between pages', async () => {
    failed.length = 0
    for (const section of ['runs', 'questions', 'findings', 'training']) {
      await page.click(`[data-test=nav-${section}]`)
      await page.waitForFunction((s) => location.hash.endsWith(`/${s}`), section)
      await page.locator('.page-head h2').waitFor()
    }
    await page.click('[data-test=nav-jobs]')
    await page.locator('[data-test=jobs-page]').waitFor()
    expect(failed).toEqual([])
  })
})
