/// <reference lib="dom" />
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { closeBrowserApp, openBrowserApp, OUTPUT_DIR, requireChromium, type ServedApp } from '../helpers/browser'
import { tempDir } from '../helpers/services'

const run = requireChromium()

/**
 * A short RL run through the UI in Chromium: a config saved on the Rewards page (graph-menu, G=2, two
 * questions per step), launched from the Training section of the Runs page, its charts growing as steps
 * complete, stopped, resumed and finished; then one of its rollouts opened in the Trajectory view.
 */
describe.runIf(run)('training in Chromium (browser mode)', () => {
  const tmp = tempDir('harness-lab-e2e-training-')
  let app: ServedApp
  let browser: Browser
  let page: Page
  const STEPS = 40

  beforeAll(async () => {
    ;({ app, browser, page } = await openBrowserApp(join(tmp.dir, 'data')))
  })
  afterAll(async () => {
    await closeBrowserApp({ app, browser })
    tmp.cleanup()
  })

  /** Plotted steps of the reward chart, read from the DOM. */
  const plotted = () => page.locator('[data-test=chart-reward]').getAttribute('data-steps').then(Number)
  const waitForPlotted = (atLeast: number, timeout = 60_000) =>
    page.waitForFunction((n) => Number(document.querySelector('[data-test=chart-reward]')?.getAttribute('data-steps') ?? 0) >= n, atLeast, { timeout })
  const fill = async (name: string, value: number) => page.fill(`[data-test=optimiser] label[data-field="${name}"] input`, String(value))

  it('saves a tiny config on the Rewards page', async () => {
    await page.goto(app.url)
    await page.fill('[data-test=new-workspace-name]', 'Training')
    await page.click('[data-test=create-workspace]')
    await page.locator('tr[data-workspace="Training"] [data-test=open]').click()
    await page.click('[data-test=create-demo]')
    await page.locator('[data-test=corpus-counts] [data-count=documents] dd').filter({ hasText: /^[1-9]/ }).waitFor({ timeout: 600_000 })

    await page.click('[data-test=nav-rewards]')
    await page.locator('[data-test=reward-terms] [data-term="sp.f1"]').waitFor()
    expect(await page.locator('[data-test=training-note]').textContent()).toContain("an F32 GGUF model's own weights")
    expect(await page.locator('[data-term="sp.recall"] [data-test=term-warning]').textContent()).toMatch(/recall/)
    // Harness-1 weights appear when the harness1 term is weighted, with the published defaults beside them.
    await page.fill('[data-term="harness1"] input', '1')
    await page.locator('[data-test=harness1-weights] label[data-field="h1.beta"]').waitFor()
    expect(await page.locator('[data-test=harness1-weights] label[data-field="h1.beta"] [data-test=field-default]').textContent()).toContain('published 2')
    await page.fill('[data-term="harness1"] input', '0')
    await page.locator('[data-test=harness1-weights]').waitFor({ state: 'detached' })

    await page.selectOption('[data-test=train-environment-default]', 'graph-menu')
    await fill('groupSize', 2)
    await fill('questionsPerStep', 2)
    await fill('steps', STEPS)
    await fill('evalInterval', 10)
    await page.fill('[data-test=config-name]', 'e2e tiny')
    await page.click('[data-test=config-save]')
    await page.locator('[data-test=config-list] tr[data-config="e2e tiny"]').waitFor()
    expect(await page.locator('[data-test=config-list] tr[data-config="e2e tiny"]').textContent()).toContain(`G=2 · Q=2 · ${STEPS} steps`)
    await page.screenshot({ path: join(OUTPUT_DIR, 'rewards.png'), fullPage: true })
  })

  it('launches the run from the Training section, sees its chart grow, stops it, resumes it and sees it finish', async () => {
    await page.click('[data-test=nav-training]')
    const launcher = page.locator('[data-test=training-launcher]')
    await launcher.locator('[data-test=train-config]').waitFor()
    await launcher.locator('[data-test=train-config]').selectOption('e2e tiny')
    await launcher.locator('[data-test=train-environment]').selectOption('graph-menu')
    await page.locator('[data-test=lexical-note]').first().waitFor()
    // Overlapping ranges: the backend refuses and the page says why.
    // The demo arrives split; these ranges are of the whole set.
    await launcher.locator('[data-test=train-split]').selectOption('')
    await launcher.locator('[data-test=heldout-split]').selectOption('')
    await launcher.locator('[data-test=train-offset]').fill('0')
    await launcher.locator('[data-test=train-limit]').fill('60')
    await launcher.locator('[data-test=heldout-offset]').fill('55')
    await launcher.locator('[data-test=heldout-limit]').fill('5')
    await launcher.locator('[data-test=train-start]').click()
    await page.locator('[data-test=training-error]', { hasText: 'overlap by 5: held-out questions must never be trained on' }).waitFor()

    await launcher.locator('[data-test=heldout-offset]').fill('60')
    await launcher.locator('[data-test=train-name]').fill('e2e run')
    await launcher.locator('[data-test=train-start]').click()
    const panel = page.locator('[data-test=training-run]')
    await panel.locator('[data-test=training-stop]').waitFor({ timeout: 600_000 })
    // The chart grows as steps complete: wait for a first point, then for more.
    await waitForPlotted(1)
    const first = await plotted()
    await waitForPlotted(first + 1)
    expect(await plotted()).toBeGreaterThan(first)
    await panel.locator('[data-test=training-stop]').click()
    await page.locator('[data-test=training-run][data-status=cancelled]').waitFor({ timeout: 600_000 })
    const stopped = await plotted()
    expect(stopped).toBeGreaterThan(first)
    expect(stopped).toBeLessThan(STEPS)
    expect(await page.locator('[data-test=training-progress]').textContent()).toBe(`${stopped} / ${STEPS} steps`)
    expect(await page.locator(`[data-test=training-runs] tr[data-status=cancelled] [data-test=steps-done]`).textContent()).toBe(`${stopped} / ${STEPS}`)
    await page.screenshot({ path: join(OUTPUT_DIR, 'training-stopped.png'), fullPage: true })

    await panel.locator('[data-test=training-resume]').click()
    await page.locator('[data-test=training-run][data-status=done]').waitFor({ timeout: 600_000 })
    expect(await plotted()).toBe(STEPS)
    expect(await page.locator('[data-test=training-progress]').textContent()).toBe(`${STEPS} / ${STEPS} steps`)
    // Held-out evaluations at steps 0, 10, 20, 30 and after the last; before and after with the paired difference.
    expect(await page.locator('[data-test=chart-held-out] circle').count()).toBe(5)
    expect(await page.locator('[data-test=held-out-table] tr[data-metric="sp.f1"] td .value').first().textContent()).toMatch(/^\d{1,3}\.\d%$/)
    expect(await page.locator('[data-test=held-out-table] tr[data-metric="sp.f1"]').textContent()).toMatch(/[+−±]\d+\.\d pp/)
    await page.locator('[data-test=training-section]').screenshot({ path: join(OUTPUT_DIR, 'training.png') })
  })

  it('opens a rollout of a chosen step in the Trajectory view', async () => {
    await page.selectOption('[data-test=rollout-step]', '3')
    const links = page.locator('[data-test=rollouts-table] [data-test=open-rollout]')
    await links.first().waitFor()
    expect(await links.count()).toBe(4)
    await links.nth(1).click()
    await page.locator('[data-test=trajectory-steps] li.step').first().waitFor({ timeout: 600_000 })
    expect(await page.locator('[data-test=step-detail] .menu li[data-chosen=true]').count()).toBe(1)
    // The credit each step received: frontier and enablement credit and the step's advantage.
    const credit = page.locator('[data-test=step-detail] [data-test=step-credit]')
    await credit.waitFor()
    for (const field of ['frontier', 'enablement', 'gain', 'total', 'advantage']) {
      expect(await credit.locator(`tr[data-field=${field}] .value`).textContent(), field).toMatch(/^[+−±]\d+\.\d{3}$/)
    }
    expect(await page.locator('[data-test=trajectory-steps] [data-test=step-advantage]').count()).toBe(await page.locator('[data-test=trajectory-steps] li.step').count())
    // Arrow keys step through the rollout.
    await page.keyboard.press('ArrowRight')
    await page.locator('[data-test=trajectory-steps] li.step[data-t="1"][aria-current=step]').waitFor()
    await page.locator('[data-test=step-detail][data-t="1"] [data-test=step-credit]').waitFor()
    expect(await page.locator('[data-test=episode-reward] tr[data-metric="train.reward"]').count()).toBe(1)
    await page.screenshot({ path: join(OUTPUT_DIR, 'training-rollout.png'), fullPage: false })

    // Its group: the other rollout of the step on the question, side by side.
    await page.locator('[data-test=compare-select] optgroup option').first().waitFor({ state: 'attached' })
    const other = await page.locator('[data-test=compare-select] optgroup option').first().getAttribute('value')
    await page.selectOption('[data-test=compare-select]', other!)
    await page.locator('[data-test=trajectory-pane]').nth(1).waitFor()
    expect(await page.locator('[data-test=trajectory-pane] [data-test=step-credit]').count()).toBe(2)
    await page.screenshot({ path: join(OUTPUT_DIR, 'training-rollout-compare.png'), fullPage: false })

    // Every rollout of the run on the Run page, filtered by training step on the backend.
    await page.goBack()
    await page.goBack()
    await page.click('[data-test=all-rollouts]')
    await page.locator('[data-test=episodes-table] tbody tr[data-episode]').first().waitFor()
    await page.fill('[data-test=filter-train-step]', '3')
    await page.press('[data-test=filter-train-step]', 'Tab')
    await page.locator('[data-test=episode-count]', { hasText: /4 of \d+ rollouts match/ }).waitFor()
    expect(await page.locator('[data-test=episodes-table] tbody tr[data-episode]').count()).toBe(4)
    await page.screenshot({ path: join(OUTPUT_DIR, 'training-rollouts-filtered.png'), fullPage: false })
  })
})
