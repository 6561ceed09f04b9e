/// <reference lib="dom" />
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectedRunSeconds, formatDuration, type RunShape } from '../../common'
import type { RouteOutput } from '../../preload/contract'
import { callApi, closeBrowserApp, openBrowserApp, OUTPUT_DIR, requireChromium, type ServedApp } from '../helpers/browser'
import { STORIES_260K, storiesAvailable, storiesTitle } from '../helpers/gguf'
import { trainerUnavailableReason } from '../helpers/gguf-training'
import { tempDir } from '../helpers/services'

const run = requireChromium()

/**
 * A GGUF run's expected time in Chromium at 1440 x 900 (stories260K on the demo world, the Defaults): no rate
 * yet, so the launcher says so and proposes a small shape; Measure speed runs the one-step speed check; then
 * "Expected: about ..." shows for the form's shape and Fit to 10 min sets the fitted one. Screenshots in
 * test-output/: gguf-estimate-*.png.
 */
describe.runIf(run && storiesAvailable)(storiesTitle('the GGUF run estimate in Chromium (browser mode)'), () => {
  const tmp = tempDir('harness-lab-e2e-gguf-estimate-')
  let app: ServedApp
  let browser: Browser
  let page: Page
  let unavailable = ''
  const shot = (name: string) => page.locator('[data-test=training-launcher]').screenshot({ path: join(OUTPUT_DIR, `gguf-estimate-${name}.png`) })

  beforeAll(async () => {
    unavailable = await trainerUnavailableReason()
    ;({ app, browser, page } = await openBrowserApp(join(tmp.dir, 'data'), { width: 1440, height: 900 }))
  }, 300_000)
  afterAll(async () => {
    await closeBrowserApp({ app, browser })
    tmp.cleanup()
  })

  it('no rates: Measure speed; then the expected duration of the form\'s shape, and Fit', async (ctx) => {
    if (unavailable) return ctx.skip(`GGUF trainer unavailable: ${unavailable}`)
    await page.goto(app.url)
    await page.click('[data-test=nav-models]')
    await page.fill('[data-test=model-path]', STORIES_260K)
    await page.click('[data-test=model-add]')
    await page.locator('[data-test=models-table] tbody tr').first().waitFor()
    await page.goto(app.url)
    await page.fill('[data-test=new-workspace-name]', 'Estimate')
    await page.click('[data-test=create-workspace]')
    await page.locator('tr[data-workspace="Estimate"] [data-test=open]').click()
    await page.click('[data-test=create-demo]')
    await page.locator('[data-test=corpus-counts] [data-count=documents] dd').filter({ hasText: /^[1-9]/ }).waitFor({ timeout: 600_000 })
    const workspaceId = /\/workspaces\/([^/?#]+)/.exec(page.url())![1]!

    await page.click('[data-test=nav-training]')
    const launcher = page.locator('[data-test=training-launcher]')
    await launcher.locator('[data-test=train-environment]').selectOption('graph-menu')
    await launcher.locator('[data-test=train-policy-kind]').selectOption('gguf')
    await launcher.locator(`[data-test=train-gguf-model] option[value="${STORIES_260K}"]`).waitFor({ state: 'attached' })
    await launcher.locator('[data-test=train-gguf-model]').selectOption(STORIES_260K)
    await launcher.locator('[data-test=gguf-no-rates]').waitFor()
    expect(await launcher.locator('[data-test=train-steps]').inputValue()).toBe('6') // UNMEASURED_SHAPE (renderer/src/stores/gguf-rates.ts): 6 x 4 x 8
    await shot('no-rates')

    await launcher.locator('[data-test=gguf-measure]').click()
    await launcher.locator('[data-test=gguf-expected]').waitFor({ timeout: 900_000 })
    const value = async (f: string) => Number(await launcher.locator(`[data-test=${f}]`).inputValue())
    const shape = async (): Promise<RunShape> => ({ steps: await value('train-steps'), groupSize: await value('train-group-size'), questionsPerStep: await value('train-questions-per-step'), evalInterval: await value('train-eval-interval'), heldOutQuestions: await value('heldout-limit') })
    const measured = (await callApi<RouteOutput<'training.ggufRates'>>(app, 'training.ggufRates', { workspaceId, modelPath: STORIES_260K, environment: 'graph-menu', contextSize: 512 }))!
    const fitted = await shape()
    expect(await launcher.locator('[data-test=gguf-expected-duration]').textContent()).toBe(formatDuration(expectedRunSeconds(measured.rates, fitted)))
    console.log(`stories260K rates on this machine (run #${measured.runId}): ${JSON.stringify(measured.rates)}; fitted to 10 min: ${fitted.steps} x ${fitted.groupSize} x ${fitted.questionsPerStep}, ${fitted.heldOutQuestions} held-out every ${fitted.evalInterval}: expected ${formatDuration(expectedRunSeconds(measured.rates, fitted))}`)
    await shot('fitted')

    // The head's shape, typed in: the estimate says what it would cost; Fit brings it back within budget.
    await launcher.locator('[data-test=train-steps]').fill('30')
    await launcher.locator('[data-test=train-group-size]').fill('8')
    await launcher.locator('[data-test=train-questions-per-step]').fill('16')
    await launcher.locator('[data-test=train-eval-interval]').fill('10')
    await page.waitForFunction((d) => document.querySelector('[data-test=gguf-expected-duration]')?.textContent === d, formatDuration(expectedRunSeconds(measured.rates, await shape())))
    await shot('head-shape')
    await launcher.locator('[data-test=gguf-fit]').click()
    await page.waitForFunction((s) => (document.querySelector('[data-test=train-steps]') as HTMLInputElement).value === String(s), fitted.steps)
    expect(await shape()).toEqual(fitted)
  }, 1_500_000)
})
