/// <reference lib="dom" />
import { join } from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROTOCOL_TRAINING_DEFAULTS, type Job, type RouteOutput } from '../../preload/contract'
import { answerInversions } from '../../renderer/src/stores/answer-caveat'
import { callApi, closeBrowserApp, openBrowserApp, OUTPUT_DIR, requireChromium, type ServedApp } from '../helpers/browser'
import { tempDir } from '../helpers/services'

const run = requireChromium()

/**
 * The workbench as a researcher meets it (issue 46), in Chromium at 1440x900 with one job at a time (so
 * launches queue, as they do on a small machine): a double click on Start training starts one job and the
 * button says so until the job exists; the defaults start on every environment the launcher lists, each
 * with its protocol's credit; a findings run waiting behind them says "queued" and offers Stop; a stopped
 * run's checkpoint is a policy; Run evaluation takes the next evaluation while one runs; differences are
 * coloured only where their CI excludes zero, in the Runs comparison and the held-out table.
 * Screenshots in test-output/: launch-defaults-*.png.
 */
describe.runIf(run)('launches, defaults and CI-judged differences in Chromium (browser mode)', () => {
  const tmp = tempDir('harness-lab-e2e-launch-')
  let app: ServedApp
  let browser: Browser
  let page: Page
  let workspaceId = ''
  /** The run started by the double click, stopped after a few steps. */
  let stoppedRun = 0
  const shot = (name: string) => page.screenshot({ path: join(OUTPUT_DIR, `launch-defaults-${name}.png`), fullPage: true })
  const call = <T>(route: string, input: unknown) => callApi<T>(app, route, input)
  const trainJobs = async () => (await call<Job[]>('job.list', { workspaceId, limit: 100 })).filter((j) => j.kind === 'train.run')

  beforeAll(async () => {
    // One job at a time: the serve process reads it as it starts (its environment is copied then).
    const before = process.env.HARNESS_LAB_JOBS
    process.env.HARNESS_LAB_JOBS = '1'
    try {
      ;({ app, browser, page } = await openBrowserApp(join(tmp.dir, 'data'), { width: 1440, height: 900 }))
    } finally {
      if (before === undefined) delete process.env.HARNESS_LAB_JOBS
      else process.env.HARNESS_LAB_JOBS = before
    }
  })
  afterAll(async () => {
    await closeBrowserApp({ app, browser })
    tmp.cleanup()
  })

  /** The launcher's small-run fields: a few questions each side, `steps` steps of 2 x 2 rollouts, held-out every step. */
  const fillSmall = async (launcher: Locator, steps: number) => {
    await launcher.locator('[data-test=train-steps]').fill(String(steps))
    await launcher.locator('[data-test=train-group-size]').fill('2')
    await launcher.locator('[data-test=train-questions-per-step]').fill('2')
    await launcher.locator('[data-test=train-eval-interval]').fill('1')
    await launcher.locator('[data-test=train-limit]').fill('8')
    await launcher.locator('[data-test=heldout-limit]').fill('6')
  }

  it('creates the demo world; its Re-split form shows its own 2:1:1, the Rewards page points to the Training page', async () => {
    await page.goto(app.url)
    await page.fill('[data-test=new-workspace-name]', 'Launch')
    await page.click('[data-test=create-workspace]')
    await page.locator('tr[data-workspace="Launch"] [data-test=open]').click()
    await page.click('[data-test=create-demo]')
    await page.locator('[data-test=corpus-counts] [data-count=documents] dd').filter({ hasText: /^[1-9]/ }).waitFor({ timeout: 600_000 })
    workspaceId = /\/workspaces\/([^/?#]+)/.exec(page.url())![1]!

    await page.click('[data-test=nav-questions]')
    await page.locator('[data-test=split-form]').waitFor()
    const ratio = await Promise.all(['train', 'dev', 'test'].map((s) => page.locator(`[data-test=split-${s}]`).inputValue()))
    expect(ratio.join(':')).toBe('2:1:1')
    await shot('resplit')

    await page.click('[data-test=nav-rewards]')
    const where = page.locator('[data-test=saved-configs-where]')
    await where.waitFor()
    expect(await where.textContent()).toContain('launch one on the Training page')
    expect(await where.locator('a').getAttribute('href')).toBe(`#/workspaces/${workspaceId}/training`)
    // The environment switch moves the credit to the new protocol's default (free query has no previews: outcome).
    await page.selectOption('[data-test=train-environment-default]', 'free-query')
    expect(await page.locator('[data-test=credit-scheme]').inputValue()).toBe(PROTOCOL_TRAINING_DEFAULTS['sentence-search'].credit)
    await page.selectOption('[data-test=train-environment-default]', 'graph-menu')
    expect(await page.locator('[data-test=credit-scheme]').inputValue()).toBe(PROTOCOL_TRAINING_DEFAULTS['sentence-menu'].credit)
  })

  it('a double click on Start training starts one job; the button says so until the job exists, and the run lists at once', async () => {
    await page.click('[data-test=nav-training]')
    const launcher = page.locator('[data-test=training-launcher]')
    await launcher.locator('[data-test=train-steps]').waitFor()
    await launcher.locator('[data-test=train-environment]').selectOption('graph-menu')
    await fillSmall(launcher, 30)
    await launcher.locator('[data-test=train-name]').fill('double click')
    // Every state the button passes through, recorded by the page itself (no timing assumed).
    await page.evaluate(() => {
      const b = document.querySelector<HTMLButtonElement>('[data-test=train-start]')!
      const states: string[] = []
      ;(window as unknown as { buttonStates: string[] }).buttonStates = states
      new MutationObserver(() => states.push(`${b.textContent?.trim()}|${b.disabled}`)).observe(b, { attributes: true, childList: true, subtree: true, characterData: true })
    })
    await launcher.locator('[data-test=train-start]').dblclick()
    await page.locator('[data-test=launched-run], [data-test=training-runs] tr[data-run]').first().waitFor()
    expect(await page.evaluate(() => (window as unknown as { buttonStates: string[] }).buttonStates)).toContain('Starting…|true')
    await launcher.locator('[data-test=train-start]:not([disabled])').waitFor()

    const panel = page.locator('[data-test=training-run]')
    await panel.locator('[data-test=training-stop]').waitFor({ timeout: 600_000 })
    await page.waitForFunction(() => Number(document.querySelector('[data-test=chart-reward]')?.getAttribute('data-steps') ?? 0) >= 3, undefined, { timeout: 600_000 })
    await panel.locator('[data-test=training-stop]').click()
    await page.locator('[data-test=training-run][data-status=cancelled]').waitFor({ timeout: 600_000 })
    // One job, one run: the second click started nothing.
    expect(await trainJobs()).toHaveLength(1)
    const runs = await call<RouteOutput<'training.runs'>>('training.runs', { workspaceId })
    expect(runs).toHaveLength(1)
    stoppedRun = runs[0]!.id
    expect(runs[0]!.credit).toBe(PROTOCOL_TRAINING_DEFAULTS['sentence-menu'].credit)
  })

  it('launches with the defaults on every environment the launcher lists, each with its protocol\'s credit; a findings run waiting behind them says queued', async () => {
    const catalog = await call<RouteOutput<'training.catalog'>>('training.catalog', {})
    const launcher = page.locator('[data-test=training-launcher]')
    const listed = await launcher.locator('[data-test=train-environment] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))
    expect(listed).toEqual(expect.arrayContaining(['graph-menu', 'free-query', 'stateful', 'transcript']))
    expect(await launcher.locator('[data-test=train-config]').inputValue()).toBe('')
    const expected: Record<string, string> = {}
    for (const env of listed) {
      const protocol = catalog.environments.find((e) => e.name === env)!.protocol
      expected[env] = PROTOCOL_TRAINING_DEFAULTS[protocol].credit
      await launcher.locator('[data-test=train-environment]').selectOption(env)
      await fillSmall(launcher, 1)
      await launcher.locator('[data-test=train-name]').fill(`defaults on ${env}`)
      expect(await launcher.locator('[data-test=train-choices]').textContent()).toContain(`${expected[env]} credit · ${PROTOCOL_TRAINING_DEFAULTS[protocol].estimator}`)
      await launcher.locator('[data-test=train-start]').click()
      await page.locator(`[data-test=launched-run]:has-text("defaults on ${env}"), [data-test=training-runs] tr[data-run]:has-text("defaults on ${env}")`).first().waitFor()
      await launcher.locator('[data-test=train-start]:not([disabled])').waitFor()
      // Not refused: no error under the form.
      expect(await page.locator('[data-test=training-error]').count()).toBe(0)
    }
    await shot('queued')

    // With one job at a time the last launches wait: a findings run started now waits too (or, were they all done,
    // runs), and says so with Stop, never "saved" with Run.
    await page.click('[data-test=nav-findings]')
    await page.locator('[data-test=findings-start]').click()
    const current = page.locator('[data-test=findings-current]')
    // Saving a findings run plans its five experiments (seconds on a loaded machine); a refusal would show its reason.
    await page.locator('[data-test=findings-current][data-status=queued], [data-test=findings-current][data-status=running], [data-test=findings-error]').first().waitFor({ timeout: 600_000 })
    expect(await page.locator('[data-test=findings-error]').count(), (await page.locator('[data-test=findings-error]').allTextContents()).join()).toBe(0)
    expect(await current.locator('[data-test=findings-resume]').count()).toBe(0)
    expect(await current.locator('[data-test=findings-status]').textContent()).toMatch(/^(queued|running)$/)
    await current.locator('[data-test=findings-cancel]').waitFor()
    await shot('findings-queued')
    await current.locator('[data-test=findings-cancel]').click()
    await current.locator('[data-test=findings-resume]').waitFor({ timeout: 600_000 })
    expect(await current.locator('[data-test=findings-resume]').textContent()).toMatch(/^(Run|Resume)$/)

    // The Jobs page names the kind, never "findings.run".
    await page.click('[data-test=nav-jobs]')
    await page.locator('[data-test=jobs-history] [data-status=cancelled]').first().waitFor()
    const jobsText = (await page.locator('[data-test=jobs-page]').textContent()) ?? ''
    expect(jobsText).toContain('Findings run')
    expect(jobsText).not.toContain('findings.run')

    // Every launch ran to the end on its environment, with its protocol's credit.
    await page.click('[data-test=nav-training]')
    await page.waitForFunction((n) => document.querySelectorAll('[data-test=training-runs] tr[data-run][data-status=done]').length >= n, listed.length, { timeout: 1_800_000 })
    const runs = await call<RouteOutput<'training.runs'>>('training.runs', { workspaceId })
    for (const env of listed) {
      const r = runs.find((x) => x.name === `defaults on ${env}`)
      expect(r, env).toBeDefined()
      expect([env, r!.status, r!.credit]).toEqual([env, 'done', expected[env]])
      // Trained on a reward its episodes measure: the run's headline metric has a held-out value.
      expect([env, r!.headlineMetric, r!.heldOutBefore]).toEqual([env, r!.headlineMetric, expect.any(Number)])
    }
    expect(await trainJobs()).toHaveLength(listed.length + 1)
    await shot('training')
  }, 2_400_000)

  it("draws the held-out table's differences neutral where their CI includes zero", async () => {
    await page.click('[data-test=nav-training]')
    await page.locator(`[data-test=training-runs] tr[data-run="${stoppedRun}"] [data-test=select-training-run]`).click()
    const table = page.locator('[data-test=held-out-table]')
    await page.locator(`[data-test=training-run][data-run="${stoppedRun}"]`).waitFor()
    await table.locator('tbody tr').first().waitFor()
    const detail = await call<RouteOutput<'training.run'>>('training.run', { workspaceId, runId: stoppedRun })
    const metrics = [...(await call<RouteOutput<'harness.catalog'>>('harness.catalog', {})).metrics, ...(await call<RouteOutput<'training.catalog'>>('training.catalog', {})).metrics]
    expect(detail.heldOut.comparison.length).toBeGreaterThan(0)
    let neutral = 0
    for (const c of detail.heldOut.comparison) {
      const row = table.locator(`tr[data-metric="${c.metric}"]`)
      const direction = metrics.find((m) => m.name === c.metric)?.direction ?? 'none'
      const side = c.lower === null || c.upper === null ? 'spans' : c.lower > 0 ? 'above' : c.upper < 0 ? 'below' : 'spans'
      const expected = direction === 'none' || side === 'spans' ? 'neutral' : (side === 'above') === (direction === 'higher') ? 'better' : 'worse'
      expect([c.metric, await row.getAttribute('data-judgement')]).toEqual([c.metric, expected])
      // Colour and weight only where judged; neutral is plain, its CI beside it.
      expect([c.metric, await row.locator('[data-test=difference]').evaluate((el) => getComputedStyle(el).fontWeight)]).toEqual([c.metric, expected === 'neutral' ? '400' : '600'])
      if (direction !== 'none' && side === 'spans') neutral++
    }
    // At least one difference with a direction whose CI includes zero, drawn neutral.
    expect(neutral).toBeGreaterThan(0)
    await table.scrollIntoViewIfNeeded()
    await page.locator('[data-test=training-run]').screenshot({ path: join(OUTPUT_DIR, 'launch-defaults-held-out.png') })
  })

  it("evaluates a stopped run's checkpoint, takes the next evaluation while one runs, and colours the Runs comparison by CI only", async () => {
    await page.click('[data-test=nav-runs]')
    const launcher = page.locator('[data-test=eval-launcher]')
    await launcher.waitFor()
    await page.selectOption('[data-test=eval-environment]', 'graph-menu')
    const head = page.locator(`[data-test=eval-policy] option[value="head:${stoppedRun}"]`)
    await head.waitFor({ state: 'attached' })
    expect(await head.textContent()).toMatch(new RegExp(`^head · training run ${stoppedRun} · step \\d+ \\(cancelled at step \\d+\\) · double click \\(graph-menu, snc credit\\)$`))
    const launch = async (policy: string, seed: number, name: string, step?: number) => {
      await page.selectOption('[data-test=eval-policy]', policy)
      if (step !== undefined) await page.fill('[data-test=eval-trained-step]', String(step))
      await page.selectOption('[data-test=eval-split]', 'test')
      expect(await page.inputValue('[data-test=eval-limit]')).toBe('23')
      await launcher.locator('label:has-text("Seed") input').fill(String(seed))
      await launcher.locator('label:has-text("Run name") input').fill(name)
      // Another evaluation queued or running never disables the button: the queue takes the next.
      expect(await page.locator('[data-test=eval-start]').isDisabled()).toBe(false)
      await page.click('[data-test=eval-start]')
      await page.locator('[data-test=runs-table] tr', { hasText: name }).waitFor({ timeout: 600_000 })
    }
    await launch(`head:${stoppedRun}`, 1, 'stopped head at step 0', 0)
    await launch('random', 1, 'random seed 1')
    await launch('random', 2, 'random seed 2')
    await launch('greedy', 1, 'greedy')
    await launch('oracle', 1, 'oracle')
    await page.waitForFunction(() => [...document.querySelectorAll('[data-test=runs-table] tbody tr')].filter((tr) => tr.getAttribute('data-status') === 'done').length >= 5, undefined, { timeout: 1_800_000 })
    const runs = await call<RouteOutput<'runs.list'>>('runs.list', { workspaceId })
    const id = (name: string) => runs.find((r) => r.name === name)!.id
    const stopped = runs.find((r) => r.name === 'stopped head at step 0')!
    expect(stopped.status).toBe('done')
    expect(stopped.config?.kind === 'evaluation' ? stopped.config.policy : null).toMatchObject({ kind: 'head', trainingRun: stoppedRun, step: 0 })

    // The lexical stand-in answered every run: where its EM ranks two runs opposite to SP F1, the table says so.
    const shown = await page.locator('[data-test=runs-table] thead th[data-metric]').evaluateAll((ths) => ths.map((th) => th.getAttribute('data-metric')!))
    const catalogue = (await call<RouteOutput<'harness.catalog'>>('harness.catalog', {})).metrics
    const info = (name: string) => catalogue.find((m) => m.name === name)!
    expect(shown[0]).toBe('sp.f1')
    const ranked = runs.filter((r) => r.kind !== 'train').map((r) => ({ label: `#${r.id} ${r.name}`, lexical: true, metrics: Object.fromEntries(Object.entries(r.metrics).map(([k, a]) => [k, a.mean])) }))
    const inversions = answerInversions(ranked, shown.map(info), info('sp.f1'))
    expect(await page.locator('[data-test=answer-inversion]').count()).toBe(Math.min(3, inversions.length))
    await page.locator('[data-test=runs-table]').scrollIntoViewIfNeeded()
    await page.screenshot({ path: join(OUTPUT_DIR, 'launch-defaults-runs-table.png'), fullPage: true })

    // Baseline random (seed 1), ticked first; the other random seed differs by chance alone.
    for (const name of ['random seed 1', 'random seed 2', 'greedy', 'oracle']) await page.locator(`[data-test=runs-table] tr[data-run="${id(name)}"] [data-test=run-select]`).check()
    await page.click('[data-test=runs-compare]')
    const table = page.locator('[data-test=run-comparison-table]')
    await table.locator(`tr[data-run="${id('oracle')}"] [data-test=difference]`).waitFor()
    const metric = (await table.getAttribute('data-metric'))!
    const compared = await call<RouteOutput<'runs.compare'>>('runs.compare', { workspaceId, baselineRunId: id('random seed 1'), runIds: [id('random seed 2'), id('greedy'), id('oracle')], metric })
    let neutralNonZero = 0
    for (const c of compared.comparisons) {
      const row = table.locator(`tr[data-run="${c.runId}"]`)
      const excludes = c.lower !== null && c.upper !== null && (c.lower > 0 || c.upper < 0)
      const weight = await row.locator('[data-test=difference]').evaluate((el) => getComputedStyle(el).fontWeight)
      expect([c.runId, await row.getAttribute('data-judgement')]).toEqual([c.runId, excludes ? (c.lower! > 0 ? 'better' : 'worse') : 'neutral'])
      expect([c.runId, weight]).toEqual([c.runId, excludes ? '600' : '400'])
      // The CI is printed with the digits that show its side of zero.
      expect(await row.locator('td').nth(5).textContent()).not.toMatch(/[−+]0\.0 /)
      if (!excludes && c.meanDifference !== null && c.meanDifference !== 0) neutralNonZero++
    }
    // The chart's bars follow the same rule.
    const bars = await page.locator('[data-test=run-comparison] [data-test=difference-chart] rect[data-judgement]').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-judgement')))
    expect(bars).toEqual(compared.comparisons.filter((c) => c.meanDifference !== null).map((c) => (c.lower !== null && c.upper !== null && (c.lower > 0 || c.upper < 0) ? (c.lower > 0 ? 'better' : 'worse') : 'neutral')))
    // The case of the issue: a non-zero mean whose CI includes zero, drawn neutral (random vs random).
    expect(neutralNonZero).toBeGreaterThan(0)
    await page.locator('[data-test=run-comparison]').screenshot({ path: join(OUTPUT_DIR, 'launch-defaults-runs-comparison.png') })
  }, 2_400_000)

  it('Ablations: choosing the test split sets Questions to its size', async () => {
    await page.click('[data-test=nav-ablations]')
    const builder = page.locator('[data-test=ablation-builder]')
    await builder.waitFor()
    // A split demo starts on test (evaluated) and train (trained), each taken whole.
    expect(await builder.locator('[data-test=ablation-split]').inputValue()).toBe('test')
    expect(await builder.locator('[data-test=ablation-limit]').inputValue()).toBe('23')
    await builder.locator('[data-test=ablation-split]').selectOption('dev')
    expect(await builder.locator('[data-test=ablation-limit]').inputValue()).toBe('23')
    await builder.locator('[data-test=ablation-split]').selectOption('train')
    expect(await builder.locator('[data-test=ablation-limit]').inputValue()).toBe('46')
    await builder.screenshot({ path: join(OUTPUT_DIR, 'launch-defaults-ablation-builder.png') })
  })
})
