/// <reference lib="dom" />
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateDemoWorld } from '../../main/corpus/demo-world'
import { fillDatabase } from '../helpers/bulk'
import { tinyModel } from '../helpers/gguf'
import { closeBrowserApp, openBrowserApp, OUTPUT_DIR, requireChromium, type ServedApp } from '../helpers/browser'
import { tempDir } from '../helpers/services'

const run = requireChromium()

describe.runIf(run)('workbench in Chromium (browser mode)', () => {
  const tmp = tempDir('harness-lab-e2e-')
  let app: ServedApp
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    ;({ app, browser, page } = await openBrowserApp(join(tmp.dir, 'data'), { height: 860 }))
  })
  afterAll(async () => {
    await closeBrowserApp({ app, browser })
    tmp.cleanup()
  })

  const row = (name: string) => page.locator(`tr[data-workspace="${name}"]`)

  it('refuses API calls without the token', async () => {
    const res = await fetch(`${app.origin}/api/call/workspace.list`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })
    expect(res.status).toBe(401)
  })

  it('creates a workspace that survives a reload, then renames it', async () => {
    await page.goto(app.url)
    await page.locator('[data-test=first-run]').waitFor()
    expect(page.url()).not.toContain('token=')
    await page.fill('[data-test=new-workspace-name]', 'E2E corpus')
    await page.click('[data-test=create-workspace]')
    await row('E2E corpus').waitFor()
    await page.reload()
    await row('E2E corpus').waitFor()
    await row('E2E corpus').locator('[data-test=rename]').click()
    await page.fill('[data-test=rename-input]', 'E2E renamed')
    await page.click('[data-test=rename-save]')
    await row('E2E renamed').waitFor()
    expect(await row('E2E corpus').count()).toBe(0)
  })

  it('runs a maintenance job with live progress, and cancels it', async () => {
    const list = (await (
      await fetch(`${app.origin}/api/call/workspace.list`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${app.token}` }, body: '{}' })
    ).json()) as { data: { id: string }[] }
    const id = list.data[0]!.id
    // A database large enough that checking it takes seconds, so there is progress to watch and time to cancel.
    fillDatabase(join(tmp.dir, 'data', 'workspaces', id, 'workspace.db'), 40, 4000)

    await row('E2E renamed').locator('[data-test=open]').click()
    await page.locator('[data-test=workspace-title]', { hasText: 'E2E renamed' }).waitFor()
    for (const section of ['Corpus', 'Questions', 'Policies', 'Runs', 'Ablations']) {
      await page.locator(`section[data-section="${section}"]`).waitFor()
    }
    await page.click('[data-test=start-maintenance]')
    const running = page.locator('section[data-section=Maintenance] li.job[data-status=running]')
    await running.waitFor()
    await page.waitForFunction(() => {
      const bar = document.querySelector('section[data-section=Maintenance] li.job[data-status=running] [role=progressbar]')
      return Number(bar?.getAttribute('aria-valuenow') ?? 0) > 0
    })
    await page.screenshot({ path: join(OUTPUT_DIR, 'workbench-job-running.png'), fullPage: true })
    await running.getByRole('button', { name: 'Cancel' }).click()
    await page.locator('section[data-section=Maintenance] li.job[data-status=cancelled]').waitFor({ timeout: 600_000 })

    await page.click('[data-test=start-maintenance]')
    await page.locator('section[data-section=Maintenance] li.job[data-status=done]').waitFor({ timeout: 600_000 })
    expect(await page.locator('section[data-section=Maintenance] li.job[data-status=done] .job-message').textContent()).toMatch(/Integrity ok across \d+ tables/)
    await page.screenshot({ path: join(OUTPUT_DIR, 'workbench-job-done.png'), fullPage: true })
  })

  it('ingests the demo world from one click and finds a known article with the search box', async () => {
    const known = generateDemoWorld({ seed: 1, size: 1 }).documents[7]!
    await page.click('text=← All workspaces')
    await page.fill('[data-test=new-workspace-name]', 'Demo')
    await page.click('[data-test=create-workspace]')
    await row('Demo').locator('[data-test=open]').click()
    await page.click('[data-test=create-demo]')
    await page.locator('[data-test=corpus-counts] [data-count=documents] dd').filter({ hasText: /^[1-9]/ }).waitFor({ timeout: 600_000 })
    await page.click('[data-test=open-corpus]')
    await page.locator('[data-test=file-table] tr[data-status=ok]').first().waitFor()
    await page.fill('[data-test=search-input]', known.title)
    await page.click('[data-test=search-button]')
    const first = page.locator('[data-test=search-results] li').first()
    await first.waitFor()
    expect(await first.locator('strong').textContent()).toBe(known.title)
    expect(await first.locator('mark').count()).toBeGreaterThan(0)
    await page.screenshot({ path: join(OUTPUT_DIR, 'corpus-search.png'), fullPage: true })
    await page.click('text=← Demo')
    await page.click('[data-test=open-questions]')
    await page.locator('[data-test=question-table] tbody tr').first().waitFor()
    expect(await page.locator('[data-test=question-table] tbody tr').count()).toBeGreaterThan(10)
    await page.screenshot({ path: join(OUTPUT_DIR, 'questions.png'), fullPage: false })
    await page.click('text=← Demo')
  })

  it('browses the graph around an entity, expands a node and exports GraphML', async () => {
    const person = generateDemoWorld({ seed: 1, size: 1 }).documents.find((d) => (d.metadata as { kind?: string } | undefined)?.kind === 'person')!
    await page.click('[data-test=open-graph]')
    await page.fill('[data-test=graph-search-input]', person.title)
    const result = page.locator('[data-test=graph-search-result]').first()
    const picked = await result.getAttribute('data-node-id')
    await result.click()
    // Counted once the picked entity is the centre: the page's opening view (the best-connected entity, whose
    // statistics may arrive late) has as many nodes or more, and a count taken from it waits for nothing.
    await page.locator(`[data-test=graph-node].node-center[data-node-id="${picked}"]`).waitFor()
    const before = await page.locator('[data-test=graph-node]').count()
    expect(before).toBeGreaterThan(3)
    // A DOM click on the node itself: the force layout may still move it under a pointer click on a loaded machine.
    await page.locator('[data-test=graph-node][data-kind=sentence]:not(.node-expanded)').first().dispatchEvent('click')
    await page.waitForFunction((n) => document.querySelectorAll('[data-test=graph-node]').length > n, before)
    expect(await page.locator('[data-test=graph-edge]').count()).toBeGreaterThan(0)
    await page.screenshot({ path: join(OUTPUT_DIR, 'graph.png'), fullPage: false })
    await page.click('[data-test=export-graphml]')
    const finished = page.locator('[data-test=export-result] li.job[data-status=done] .job-message')
    await finished.waitFor({ timeout: 600_000 })
    const file = /→ (.+\.graphml)/.exec((await finished.textContent()) ?? '')?.[1]
    expect(file && existsSync(file)).toBe(true)
    expect(readFileSync(file!, 'utf8')).toMatch(/^<\?xml[\s\S]*<graphml[\s\S]*<\/graphml>\s*$/)
    // In browser mode the file also downloads to the user, through the token-checked download route.
    const href = await page.locator('[data-test=export-download]').getAttribute('href')
    expect(href).toMatch(/^\/api\/download\//)
    const body = await page.evaluate(async (url) => (await fetch(url)).text(), href!)
    expect(body).toBe(readFileSync(file!, 'utf8'))
    await page.click('text=← Demo')
  })

  it('evaluates a scripted policy in Harness-G and replays a trajectory; runs the tool policy in Harness-1', async () => {
    await page.click('[data-test=open-runs]')
    await page.selectOption('[data-test=eval-environment]', 'graph-menu')
    await page.selectOption('[data-test=eval-policy]', 'greedy')
    await page.fill('[data-test=eval-limit]', '5')
    await page.fill('[data-test=eval-config]', '{"bogus": 1}')
    await page.locator('[data-test=eval-config-error]', { hasText: 'Unknown option' }).waitFor()
    await page.fill('[data-test=eval-config]', '{"turnLimit": 6}')
    await page.click('[data-test=eval-start]')
    const done = page.locator('[data-test=runs-table] tr[data-status=done]')
    await done.first().waitFor({ timeout: 600_000 })
    // Labels, units and columns come from the backend's metric catalogue: fractions as percentages with one decimal.
    expect(await done.first().locator('[data-metric="sp.f1"] .value').textContent()).toMatch(/^\d{1,3}\.\d%$/)
    expect(await page.locator('[data-test=runs-table] thead th[data-metric="answer.em.official"]').textContent()).toContain('EM (official HotpotQA/2Wiki)')

    await page.selectOption('[data-test=eval-environment]', 'stateful')
    await page.selectOption('[data-test=eval-policy]', 'scripted-tools')
    await page.fill('[data-test=eval-config]', '{}')
    await page.fill('[data-test=eval-limit]', '3')
    await page.click('[data-test=eval-start]')
    await page.waitForFunction(() => document.querySelectorAll('[data-test=runs-table] tr[data-status=done]').length === 2, undefined, { timeout: 600_000 })
    expect(await done.first().locator('[data-metric="reward.total"] .value').textContent()).toMatch(/^−?\d+\.\d{3}$/)
    await page.screenshot({ path: join(OUTPUT_DIR, 'runs.png'), fullPage: true })

    await done.last().locator('a').first().click()
    await page.locator('[data-test=open-trajectory]').first().click()
    await page.locator('[data-test=trajectory-steps] li.step').first().waitFor()
    expect(await page.locator('[data-test=step-detail] .menu li[data-chosen=true]').count()).toBe(1)
    // Step-through replay: the arrow keys move between steps, the step list and the detail follow.
    const steps = await page.locator('[data-test=trajectory-steps] li.step').count()
    expect(steps).toBeGreaterThan(1)
    expect(await page.locator('[data-test=step-counter]').textContent()).toBe(`Step 1 / ${steps}`)
    await page.keyboard.press('ArrowRight')
    await page.locator('[data-test=trajectory-steps] li.step[data-t="1"][aria-current=step]').waitFor()
    expect(await page.locator('[data-test=step-detail]').getAttribute('data-t')).toBe('1')
    expect(await page.locator('[data-test=step-counter]').textContent()).toBe(`Step 2 / ${steps}`)
    await page.keyboard.press('ArrowLeft')
    await page.locator('[data-test=trajectory-steps] li.step[data-t="0"][aria-current=step]').waitFor()
    await page.keyboard.press('End')
    await page.locator(`[data-test=step-detail][data-t="${steps - 1}"]`).waitFor()
    // Harness-G: the committed evidence after the step, from the typed step view; the path on the graph with the gold marked.
    await page.locator('[data-test=committed-evidence] li[data-sentence]').first().waitFor()
    expect(await page.locator('[data-test=committed-evidence] li[data-sentence]').first().textContent()).toMatch(/sentence \d+ \S/)
    expect(await page.locator('[data-test=working-memory]').count()).toBe(0)
    await page.locator('[data-test=path-node][data-visit="1"]').waitFor()
    await page.locator('[data-test=path-node][data-gold=sentence]').first().waitFor()
    await page.screenshot({ path: join(OUTPUT_DIR, 'trajectory.png'), fullPage: false })
    await page.locator('[data-test=episode-path]').screenshot({ path: join(OUTPUT_DIR, 'trajectory-path.png') })

    // Harness-1 replay: the working memory as the policy saw it, and what each step changed.
    await page.goBack()
    await page.goBack()
    await done.first().locator('a').first().click()
    await page.locator('[data-test=open-trajectory]').first().click()
    await page.locator('[data-test=working-memory]').first().waitFor()
    expect(await page.locator('[data-test=working-memory]').first().textContent()).toMatch(/\[Context: \d+\/\d+\]/)
    await page.keyboard.press('ArrowRight')
    await page.locator('[data-test=step-detail][data-t="1"]').waitFor()
    // Harness-1: the curated set of the working memory and what each step changed, from the typed step view.
    await page.locator('[data-test=memory-curated] li code').first().waitFor()
    expect(await page.locator('[data-test=step-changes]').textContent()).toMatch(/Changed: .*context \d+ → \d+ tokens/)
    expect(await page.locator('[data-test=committed-evidence]').count()).toBe(0)
    // The reward at the end with each component, labelled by the metric catalogue.
    expect(await page.locator('[data-test=episode-reward] tr[data-metric="reward.total"]').textContent()).toMatch(/Reward \(Harness-1\)\s*−?\d+\.\d{3}/)
    expect(await page.locator('[data-test=episode-reward] tr[data-metric^="reward."]').count()).toBeGreaterThan(3)
    await page.screenshot({ path: join(OUTPUT_DIR, 'trajectory-harness1.png'), fullPage: false })

    // Two episodes on the same question side by side: the Harness-1 episode against the Harness-G one, aligned by step.
    await page.goBack()
    await page.locator('[data-test=compare-with]').first().click()
    await page.locator('[data-test=comparable-runs] a').first().click()
    await page.locator('[data-test=trajectory-pane]').nth(1).waitFor()
    await page.keyboard.press('ArrowRight')
    await page.locator('[data-test=trajectory-pane][data-lane=A] [data-test=step-detail][data-t="1"]').waitFor()
    expect(await page.locator('[data-test=trajectory-pane][data-lane=B] [data-test=step-detail][data-t="1"]').count()).toBe(1)
    await page.screenshot({ path: join(OUTPUT_DIR, 'trajectory-compare.png'), fullPage: false })
    await page.goBack()
    // The Run page filters on the backend.
    await page.fill('[data-test=filter-question]', 'zzzz-no-such-question')
    await page.locator('[data-test=no-episodes]').waitFor()
    await page.click('[data-test=filter-clear]')
    await page.locator('[data-test=episodes-table] tbody tr[data-episode]').first().waitFor()
    await page.selectOption('[data-test=filter-correct]', 'wrong:answer')
    await page.locator('[data-test=filter-correct-note]').waitFor()
    await page.screenshot({ path: join(OUTPUT_DIR, 'run-filters.png'), fullPage: false })
    await page.click('[data-test=filter-clear]')
    await page.goBack()

    // Ablations: the Harness-1 run against the Harness-G run on paragraph recall, paired by question.
    await page.goBack()
    await page.goBack()
    await page.click('text=← Demo')
    await page.click('[data-test=open-ablations]')
    await page.locator('[data-test=ablation-candidate]').first().check()
    await page.selectOption('[data-test=ablation-metric]', 'paragraph.recall')
    await page.click('[data-test=ablation-compare]')
    await page.locator('[data-test=ablation-table] tbody tr').first().waitFor()
    await page.locator('[data-test=difference-chart]').waitFor()
    expect(await page.locator('[data-test=ablation-table] tbody tr').first().textContent()).toMatch(/[+−±]\d+\.\d pp/)
    await page.screenshot({ path: join(OUTPUT_DIR, 'ablations.png'), fullPage: true })
    await page.goto(`${app.origin}/#/`)
  })

  it('registers a GGUF model, loads it, and tries one episode with it as the policy', async () => {
    const model = tinyModel(tmp.dir, { vocab: 'spm', seed: 11, chatTemplate: undefined }).file
    await page.click('[data-test=nav-models]')
    await page.fill('[data-test=model-path]', model)
    await page.click('[data-test=model-add]')
    const row = page.locator('[data-test=models-table] tbody tr').first()
    await row.waitFor()
    await row.locator('[data-test=model-load]').click()
    await row.locator('[data-test=model-loaded]').waitFor({ timeout: 600_000 })
    expect(await page.locator('[data-test=runtime]').textContent()).toMatch(/Backend: (cpu|cuda|vulkan|metal)/)
    await page.screenshot({ path: join(OUTPUT_DIR, 'models.png'), fullPage: true })
    await page.selectOption('[data-test=try-environment]', 'graph-menu')
    await page.locator('[data-test=try-policy] option', { hasText: '(GGUF)' }).first().waitFor({ state: 'attached' })
    const value = await page.locator('[data-test=try-policy] option', { hasText: '(GGUF)' }).first().getAttribute('value')
    await page.selectOption('[data-test=try-policy]', value!)
    await page.click('[data-test=try-run]')
    await page.locator('[data-test=trajectory-steps] li.step').first().waitFor({ timeout: 600_000 })
    // Grammar-constrained: every step the model took is a valid menu id.
    expect(await page.locator('[data-test=trajectory-steps] li.step[data-valid=false]').count()).toBe(0)
    await page.screenshot({ path: join(OUTPUT_DIR, 'try-it-llm.png'), fullPage: false })
  })

  it('deletes the workspace after confirmation', async () => {
    await page.goto(`${app.origin}/#/`)
    for (const name of ['E2E renamed', 'Demo']) {
      await row(name).locator('[data-test=delete]').click()
      await page.fill('[data-test=confirm-input]', name)
      await page.click('[data-test=confirm-button]')
      await row(name).waitFor({ state: 'detached' })
    }
    await page.locator('[data-test=first-run]').waitFor()
    await page.reload()
    await page.locator('[data-test=first-run]').waitFor()
    await page.screenshot({ path: join(OUTPUT_DIR, 'workbench-empty.png'), fullPage: true })
  })
})
