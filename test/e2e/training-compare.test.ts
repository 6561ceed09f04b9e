/// <reference lib="dom" />
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callApi, closeBrowserApp, openBrowserApp, OUTPUT_DIR, requireChromium, type ServedApp } from '../helpers/browser'
import { tempDir } from '../helpers/services'

const run = requireChromium()

/**
 * Two short training runs on the demo world (started over the API, "Try it" open meanwhile: each head is
 * offered once its run is done): their learning curves overlaid in the Training section (held-out curve
 * and reward curve, one series and one legend entry per run), then one run's trained head picked as the
 * policy in "Try it", whose episode opens in the Trajectory view.
 */
describe.runIf(run)('comparing training runs and trying a trained head (browser mode)', () => {
  const tmp = tempDir('harness-lab-e2e-training-compare-')
  let app: ServedApp
  let browser: Browser
  let page: Page
  let workspaceId = ''
  const runIds: number[] = []

  const call = (route: string, input: unknown): Promise<unknown> => callApi(app, route, input)

  beforeAll(async () => {
    ;({ app, browser, page } = await openBrowserApp(join(tmp.dir, 'data')))
  })
  afterAll(async () => {
    await closeBrowserApp({ app, browser })
    tmp.cleanup()
  })

  it('overlays the held-out and reward curves of two runs, the legend naming both', async () => {
    await page.goto(app.url)
    await page.fill('[data-test=new-workspace-name]', 'Compare')
    await page.click('[data-test=create-workspace]')
    await page.locator('tr[data-workspace="Compare"] [data-test=open]').click()
    await page.click('[data-test=create-demo]')
    await page.locator('[data-test=corpus-counts] [data-count=documents] dd').filter({ hasText: /^[1-9]/ }).waitFor({ timeout: 600_000 })
    workspaceId = /workspaces\/([^/?#]+)/.exec(page.url())![1]!
    const questionSetId = ((await call('questions.sets', { workspaceId })) as Array<{ id: number }>)[0]!.id
    // Two tiny runs differing in seed and learning rate: 3 steps, held-out evaluations at 0, 1, 2 and after the last.
    for (const [name, seed, learningRate] of [['lr 0.02', 1, 0.02], ['lr 0.1', 2, 0.1]] as const) {
      await call('job.start', {
        kind: 'train.run',
        workspaceId,
        params: {
          mode: 'new',
          config: { name, environment: 'graph-menu', groupSize: 2, questionsPerStep: 2, steps: 3, evalInterval: 1, seed, learningRate, train: { questionSetId, offset: 0, limit: 10 }, heldOut: { questionSetId, offset: 60, limit: 4 } },
        },
      })
    }
    // "Try it" open while they train: each run's head is offered once its job is done.
    await page.click('[data-test=nav-models]')
    const tryIt = page.locator('[data-test=try-it]')
    await tryIt.locator('[data-test=try-workspace]').selectOption(workspaceId)
    await tryIt.locator('[data-test=try-environment]').selectOption('graph-menu')
    await page.waitForFunction(() => document.querySelectorAll('[data-test=try-it] [data-test=try-policy-head]').length === 2, null, { timeout: 600_000 })
    const offered = await tryIt.locator('[data-test=try-policy-head]').evaluateAll((options) => options.map((o) => Number((o as HTMLOptionElement).value.replace('head:', ''))))
    runIds.push(...offered.sort((a, b) => a - b))
    const done = ((await call('training.runs', { workspaceId })) as Array<{ id: number; status: string }>).filter((r) => r.status === 'done')
    expect(done.map((r) => r.id).sort((a, b) => a - b)).toEqual(runIds)

    await page.goto(`${app.origin}/#/workspaces/${workspaceId}/training`)
    await page.waitForFunction(() => document.querySelectorAll('[data-test=training-runs] tr[data-status=done]').length === 2, null, { timeout: 600_000 })
    const compare = page.locator('[data-test=training-compare]')
    for (const id of runIds) await compare.locator(`[data-test=compare-runs] input[data-run="${id}"]`).check()
    const heldOut = compare.locator('[data-test=chart-compare-held-out]')
    const reward = compare.locator('[data-test=chart-compare-reward]')
    for (const chart of [heldOut, reward]) {
      for (const id of runIds) await chart.locator(`g[data-series="run:${id}"] path`).waitFor()
    }
    // One curve per run: held-out at steps 0, 1, 2 and after the last (4 points), reward at every step (3).
    for (const id of runIds) {
      expect(await heldOut.locator(`circle[data-series="run:${id}"]`).count()).toBe(4)
      expect(await reward.locator(`circle[data-series="run:${id}"]`).count()).toBe(3)
      expect(await heldOut.locator(`g[data-series="run:${id}"] path`).getAttribute('d')).toMatch(/^M[\d.]+,[\d.]+L/)
    }
    const legend = (await heldOut.locator('.legend li').allTextContents()).join(' | ')
    expect(legend).toContain('lr 0.02')
    expect(legend).toContain('lr 0.1')
    expect(await reward.locator('.legend li').count()).toBe(2)
    // Labels and units from the metric catalogue: the demo world has sentence gold, so held-out SP F1 in percent.
    expect(await heldOut.locator('figcaption').textContent()).toMatch(/^Held-out .*F1/)
    // Percent ticks with the precision their spacing needs (20 %-steps need no decimal).
    expect(await heldOut.locator('text.tick').allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/^\d+(\.\d+)?%$/)]))
    await compare.screenshot({ path: join(OUTPUT_DIR, 'training-compare.png') })

    // Unpicking a run takes its curve off.
    await compare.locator(`[data-test=compare-runs] input[data-run="${runIds[0]}"]`).uncheck()
    await heldOut.locator(`g[data-series="run:${runIds[0]}"]`).waitFor({ state: 'detached' })
    expect(await heldOut.locator('.legend li').count()).toBe(1)
  })

  it('runs an episode in "Try it" with a trained head as the policy', async () => {
    await page.click('[data-test=nav-models]')
    const tryIt = page.locator('[data-test=try-it]')
    await tryIt.locator('[data-test=try-workspace]').selectOption(workspaceId)
    await tryIt.locator('[data-test=try-question] option').first().waitFor({ state: 'attached' })
    await tryIt.locator('[data-test=try-environment]').selectOption('graph-menu')
    const head = tryIt.locator(`[data-test=try-policy-head][value="head:${runIds[1]}"]`)
    await head.waitFor({ state: 'attached' })
    expect(await head.textContent()).toMatch(new RegExp(`^head · training run ${runIds[1]} · step \\d+ .*\\(graph-menu, \\w+ credit\\)$`))
    await tryIt.locator('[data-test=try-policy]').selectOption(`head:${runIds[1]}`)
    await tryIt.locator('[data-test=try-run]').click()
    await page.locator('[data-test=trajectory-steps] li.step').first().waitFor({ timeout: 600_000 })
    expect(page.url()).toMatch(/\/episodes\/\d+$/)
    // The episode's run names the head it played with.
    const runs = (await call('runs.list', { workspaceId })) as Array<{ name: string; config: { policy?: unknown } }>
    expect(runs.find((r) => r.name === 'try it')?.config.policy).toMatchObject({ kind: 'head', trainingRun: runIds[1] })
    await page.screenshot({ path: join(OUTPUT_DIR, 'try-it-head.png') })
  })
})
