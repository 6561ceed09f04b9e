/// <reference lib="dom" />
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GgufTrainSchema } from '../../preload/contract'
import { trainerUnavailableReason } from '../helpers/gguf-training'
import { closeBrowserApp, openBrowserApp, OUTPUT_DIR, requireChromium, type ServedApp } from '../helpers/browser'
import { STORIES_260K, storiesAvailable, storiesTitle } from '../helpers/gguf'
import { tempDir } from '../helpers/services'

const run = requireChromium()

/**
 * RL on a GGUF model's own weights through the UI in Chromium: stories260K registered on the Models
 * page, a GGUF run (graph-menu, G=2, one question per step) launched from the Training section with the
 * model chosen from the registered ones, its chart growing, stopped, resumed and finished; the trained
 * weights then appear on the Models page with their provenance (base model, run, step).
 */
describe.runIf(run && storiesAvailable)(storiesTitle('GGUF training in Chromium (browser mode)'), () => {
  const tmp = tempDir('harness-lab-e2e-gguf-training-')
  let app: ServedApp
  let browser: Browser
  let page: Page
  let unavailable = ''
  const STEPS = 5

  beforeAll(async () => {
    unavailable = await trainerUnavailableReason()
    ;({ app, browser, page } = await openBrowserApp(join(tmp.dir, 'data')))
  }, 300_000)
  afterAll(async () => {
    await closeBrowserApp({ app, browser })
    tmp.cleanup()
  })

  const plotted = () => page.locator('[data-test=chart-reward]').getAttribute('data-steps').then(Number)
  const waitForPlotted = (atLeast: number, timeout = 300_000) =>
    page.waitForFunction((n) => Number(document.querySelector('[data-test=chart-reward]')?.getAttribute('data-steps') ?? 0) >= n, atLeast, { timeout })
  const fill = async (name: string, value: number) => page.fill(`[data-test=optimiser] label[data-field="${name}"] input`, String(value))

  it('registers stories260K and saves a tiny config', async (ctx) => {
    if (unavailable) return ctx.skip(`GGUF trainer unavailable: ${unavailable}`)
    await page.goto(app.url)
    await page.click('[data-test=nav-models]')
    await page.fill('[data-test=model-path]', STORIES_260K)
    await page.click('[data-test=model-add]')
    await page.locator('[data-test=models-table] tbody tr').first().waitFor()

    await page.goto(app.url)
    await page.fill('[data-test=new-workspace-name]', 'GGUF training')
    await page.click('[data-test=create-workspace]')
    await page.locator('tr[data-workspace="GGUF training"] [data-test=open]').click()
    await page.click('[data-test=create-demo]')
    await page.locator('[data-test=corpus-counts] [data-count=documents] dd').filter({ hasText: /^[1-9]/ }).waitFor({ timeout: 600_000 })
    await page.click('[data-test=nav-rewards]')
    await page.locator('[data-test=reward-terms] [data-term="sp.f1"]').waitFor()
    await page.selectOption('[data-test=train-environment-default]', 'graph-menu')
    await fill('groupSize', 2)
    await fill('questionsPerStep', 1)
    await fill('steps', STEPS)
    await fill('evalInterval', 10)
    await page.fill('[data-test=config-name]', 'gguf tiny')
    await page.click('[data-test=config-save]')
    await page.locator('[data-test=config-list] tr[data-config="gguf tiny"]').waitFor()
  })

  it('launches a GGUF run from the Training section, sees its chart grow, stops, resumes and finishes it', async (ctx) => {
    if (unavailable) return ctx.skip(`GGUF trainer unavailable: ${unavailable}`)
    await page.click('[data-test=nav-training]')
    const launcher = page.locator('[data-test=training-launcher]')
    await launcher.locator('[data-test=train-config]').waitFor()
    await launcher.locator('[data-test=train-config]').selectOption('gguf tiny')
    await launcher.locator('[data-test=train-environment]').selectOption('graph-menu')
    // The demo arrives split; these ranges are of the whole set.
    await launcher.locator('[data-test=train-split]').selectOption('')
    await launcher.locator('[data-test=heldout-split]').selectOption('')
    await launcher.locator('[data-test=train-offset]').fill('0')
    await launcher.locator('[data-test=train-limit]').fill('40')
    await launcher.locator('[data-test=heldout-offset]').fill('40')
    await launcher.locator('[data-test=heldout-limit]').fill('2')
    await launcher.locator('[data-test=train-policy-kind]').selectOption('gguf')
    // The model comes from the registered ones; the options start at the contract's defaults.
    await launcher.locator(`[data-test=train-gguf-model] option[value="${STORIES_260K}"]`).waitFor({ state: 'attached' })
    await launcher.locator('[data-test=train-gguf-model]').selectOption(STORIES_260K)
    const defaults = GgufTrainSchema.parse({ modelPath: STORIES_260K })
    expect(await launcher.locator('[data-test=train-gguf-lr]').inputValue()).toBe(String(defaults.learningRate))
    expect(await launcher.locator('[data-test=train-gguf-optimizer]').inputValue()).toBe(defaults.optimizer)
    expect(await launcher.locator('[data-test=train-gguf-kl-target]').inputValue()).toBe(String(defaults.klTarget))
    await launcher.locator('[data-test=train-gguf-lr]').fill('0.0005')
    await launcher.locator('[data-test=train-gguf-last-blocks]').fill('1')
    await launcher.locator('[data-test=train-name]').fill('e2e gguf run')
    await launcher.locator('[data-test=train-start]').click()

    const panel = page.locator('[data-test=training-run]')
    // The run's panel, or the reason it was refused.
    await page.locator('[data-test=training-run] [data-test=training-stop], [data-test=training-run][data-status=failed], [data-test=training-error]').first().waitFor({ timeout: 600_000 }).catch(async (err: unknown) => {
      await page.screenshot({ path: join(OUTPUT_DIR, 'training-gguf-launch-failed.png'), fullPage: true })
      console.log(await page.locator('body').innerText())
      throw err
    })
    expect(await page.locator('[data-test=training-run][data-status=failed]').count(), await page.locator('[data-test=training-run]').textContent() ?? '').toBe(0)
    expect(await page.locator('[data-test=training-error]').count(), (await page.locator('[data-test=training-error]').allTextContents()).join(' ')).toBe(0)
    expect(await panel.locator('[data-test=training-gguf]').textContent()).toMatch(new RegExp(`Trains the weights of .*stories260K\\.gguf · ${defaults.optimizer} lr 0\\.0005 · output \\+ last 1 blocks`))
    // The setup line names the GGUF update, not the head's loss, learning rate or entropy bonus.
    const setup = (await panel.locator('[data-test=training-setup]').textContent()) ?? ''
    expect(setup).toContain('advantage-weighted update of the sampled tokens, one optimizer step per training step')
    expect(setup).not.toMatch(/entropy|ppo-clip|reinforce/)
    await waitForPlotted(1)
    const first = await plotted()
    await waitForPlotted(first + 1)
    await panel.locator('[data-test=training-stop]').click()
    await page.locator('[data-test=training-run][data-status=cancelled]').waitFor({ timeout: 300_000 })
    const stopped = await plotted()
    expect(stopped).toBeGreaterThan(first)
    expect(stopped).toBeLessThan(STEPS)
    await page.locator('[data-test=training-section]').screenshot({ path: join(OUTPUT_DIR, 'training-gguf-stopped.png') })

    await panel.locator('[data-test=training-resume]').click()
    await page.locator('[data-test=training-run][data-status=done]').waitFor({ timeout: 600_000 })
    expect(await plotted()).toBe(STEPS)
    expect(await page.locator('[data-test=training-progress]').textContent()).toBe(`${STEPS} / ${STEPS} steps`)
    await page.locator('[data-test=training-section]').screenshot({ path: join(OUTPUT_DIR, 'training-gguf.png') })
  }, 1_200_000)

  it('shows the trained weights registered on the Models page with their provenance', async (ctx) => {
    if (unavailable) return ctx.skip(`GGUF trainer unavailable: ${unavailable}`)
    const runId = await page.locator('[data-test=training-run]').getAttribute('data-run')
    await page.click('[data-test=nav-models]')
    const provenance = page.locator('[data-test=models-table] [data-test=model-provenance]')
    await provenance.waitFor()
    expect(await provenance.textContent()).toMatch(new RegExp(`trained by run #${runId} \\(step ${STEPS - 1}\\) from .*stories260K\\.gguf · base sha256 [0-9a-f]{12}`))
    expect(await page.locator('[data-test=models-table] tbody tr').count()).toBe(2)
    await page.screenshot({ path: join(OUTPUT_DIR, 'models-trained-gguf.png'), fullPage: true })
  })
})
