/**
 * The Runs, Run, Ablations and Trajectory pages against the real backend in-process: what they offer
 * comes from the catalogue's declarations, labels and units from its metric catalogue, and the
 * trajectory from the typed step view (Harness-1 working memory, Harness-G committed evidence).
 */
import type { VueWrapper } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { RouteOutput } from '../../preload/contract'
import { provideApi } from '../../renderer/src/api'
import { useTrajectoryStore } from '../../renderer/src/stores/trajectory'
import type { TestBackend } from '../helpers/services'
import { countingApi, type CountingApi, type DemoRuns, demoRuns, mountApp, settle, startJobBackend, until } from './fixtures'

describe('Runs, Run, Ablations and Trajectory pages', () => {
  let backend: TestBackend
  let counting: CountingApi
  let demo: DemoRuns
  let catalog: RouteOutput<'harness.catalog'>
  let wrapper: VueWrapper | undefined

  beforeAll(async () => {
    backend = await startJobBackend()
    counting = countingApi(backend)
    provideApi(counting.api)
    demo = await demoRuns(backend)
    catalog = await backend.call('harness.catalog', {})
  }, 600_000)
  afterAll(() => backend?.close())
  afterEach(() => {
    wrapper?.unmount()
    wrapper = undefined
  })

  async function mountAt(path: string): Promise<VueWrapper> {
    wrapper = await mountApp(path)
    return wrapper
  }

  const episodesOf = async (runId: number) => (await backend.call('runs.episodes', { workspaceId: demo.workspaceId, runId, limit: 50 })).episodes

  it('serves a metric catalogue that describes every metric the runs stored', async () => {
    const byName = new Map(catalog.metrics.map((m) => [m.name, m]))
    const stored = new Set((await backend.call('runs.list', { workspaceId: demo.workspaceId })).flatMap((r) => Object.keys(r.metrics)))
    expect(stored.size).toBeGreaterThan(10)
    for (const name of stored) {
      const info = byName.get(name)
      expect(info, `catalogue entry for ${name}`).toBeDefined()
      expect(info!.group, name).not.toBe('Other')
    }
    expect(byName.get('answer.em.official')).toMatchObject({ label: 'EM (official HotpotQA/2Wiki)', direction: 'higher', format: 'fraction' })
    expect(byName.get('answer.f1.graphr1')!.label).toMatch(/Graph-R1/)
    expect(byName.get('reward.total')).toMatchObject({ format: 'number', direction: 'higher' })
    expect(byName.get('turns')).toMatchObject({ format: 'count', direction: 'none' })
    expect(byName.get('formatErrors')).toMatchObject({ format: 'count', direction: 'lower' })
  })

  it('launcher offers the policies that drive the chosen environment, its presets, and Harness-1 weights only for that reward scheme', async () => {
    const w = await mountAt(`/workspaces/${demo.workspaceId}/runs`)
    const launcher = w.get('[data-test=eval-launcher]')
    for (const env of catalog.environments) {
      await launcher.get('[data-test=eval-environment]').setValue(env.name)
      await settle()
      const offered = launcher.findAll('[data-test=eval-policy] option').map((o) => o.attributes('value'))
      const fitting = catalog.scriptedPolicies.filter((p) => p.protocols.includes(env.protocol)).map((p) => p.name)
      expect(offered, env.name).toEqual([...fitting, 'llm'])
      expect(launcher.find('[data-test=eval-weights]').exists(), env.name).toBe(env.rewardScheme === 'harness1')
      const presets = launcher.findAll('[data-test=eval-preset] option').map((o) => o.text())
      expect(presets, env.name).toEqual(env.presets.length ? ['(custom delta)', ...env.presets.map((p) => p.label)] : [])
    }
    // Choosing a preset writes its delta; an edited delta shows as custom.
    const withDelta = catalog.environments.find((e) => e.presets.some((p) => Object.keys(p.delta).length > 0))!
    const preset = withDelta.presets.find((p) => Object.keys(p.delta).length > 0)!
    await launcher.get('[data-test=eval-environment]').setValue(withDelta.name)
    await launcher.get('[data-test=eval-preset]').setValue(preset.name)
    expect(JSON.parse((launcher.get('[data-test=eval-config]').element as HTMLTextAreaElement).value)).toEqual(preset.delta)
    await launcher.get('[data-test=eval-config]').setValue('{"bogus": 1}')
    expect((launcher.get('[data-test=eval-preset]').element as HTMLSelectElement).value).toBe('')
    expect(launcher.get('[data-test=eval-config-error]').text()).toMatch(/Unknown option/)
  })

  it('Runs table takes its columns, labels and units from the catalogue', async () => {
    const w = await mountAt(`/workspaces/${demo.workspaceId}/runs`)
    await until(() => w.findAll('[data-test=runs-table] tbody tr').length === 2, 'two runs listed')
    const headers = w.findAll('[data-test=runs-table] thead th[data-metric]')
    const headline = catalog.metrics.filter((m) => m.headline).map((m) => m.name)
    expect(headers.length).toBeGreaterThan(3)
    for (const h of headers) expect(headline).toContain(h.attributes('data-metric'))
    expect(w.get('[data-test=runs-table] thead th[data-metric="answer.em.official"]').text()).toContain('EM (official HotpotQA/2Wiki)')
    const menuRow = w.get(`[data-test=runs-table] tr[data-run="${demo.menuRunId}"]`)
    expect(menuRow.get('[data-metric="sp.f1"] .value').text()).toMatch(/^\d{1,3}\.\d%/)
    expect(menuRow.get('[data-metric="turns"] .value').text()).toMatch(/^\d+(\.\d)?$/)
    const h1Row = w.get(`[data-test=runs-table] tr[data-run="${demo.harness1RunId}"]`)
    expect(h1Row.get('[data-metric="reward.total"] .value').text()).toMatch(/^−?\d+\.\d{3}$/)
    expect(menuRow.get('[data-metric="sp.f1"] .ci').text()).toMatch(/^(\d{1,3}\.\d–\d{1,3}\.\d%)?$/)
    // A metric column picked from the catalogue's groups appears; unpicking removes it.
    await w.get('[data-test=metric-columns] input[data-metric="sp.precision"]').setValue(true)
    expect(w.find('[data-test=runs-table] thead th[data-metric="sp.precision"]').text()).toContain('SP precision')
    await w.get('[data-test=metric-columns] input[data-metric="sp.precision"]').setValue(false)
    expect(w.find('[data-test=runs-table] thead th[data-metric="sp.precision"]').exists()).toBe(false)
  })

  it('Run page shows per-question metrics in the same units', async () => {
    const w = await mountAt(`/workspaces/${demo.workspaceId}/runs/${demo.menuRunId}`)
    await until(() => w.findAll('[data-test=episodes-table] tbody tr').length > 0, 'episodes listed')
    expect(w.get('[data-test=episodes-table] thead th[data-metric="answer.f1.official"]').text()).toContain('F1 (official HotpotQA/2Wiki)')
    for (const cell of w.findAll('[data-test=episodes-table] tbody td[data-metric="sp.f1"]')) expect(cell.text()).toMatch(/^(\d{1,3}\.\d%|–)$/)
  })

  const keyDown = async (key: string) => {
    window.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }))
    await settle()
  }
  const currentStep = (w: VueWrapper) => w.get('[data-test=trajectory-steps] li.step[aria-current=step]').attributes('data-t')

  it('Trajectory replays a Harness-G episode step by step: the step list, previous / next and arrow keys, committed evidence, the menu with previews and the chosen item, prompt and raw output', async () => {
    const episode = (await episodesOf(demo.menuRunId))[0]!
    const typed = await backend.call('runs.episode', { workspaceId: demo.workspaceId, episodeId: episode.id })
    expect(typed.steps.length).toBeGreaterThan(1)
    const w = await mountAt(`/workspaces/${demo.workspaceId}/episodes/${episode.id}`)
    await until(() => w.findAll('[data-test=trajectory-steps] li.step').length === typed.steps.length, 'steps listed')
    expect(w.get('[data-test=step-counter]').text()).toBe(`Step 1 / ${typed.steps.length}`)
    expect(currentStep(w)).toBe('0')
    expect(w.get('[data-test=step-detail]').attributes('data-t')).toBe('0')
    // Arrow keys and the buttons move between steps, within bounds.
    await keyDown('ArrowRight')
    expect(currentStep(w)).toBe('1')
    expect(w.get('[data-test=step-detail]').attributes('data-t')).toBe('1')
    await keyDown('ArrowLeft')
    await keyDown('ArrowLeft')
    expect(currentStep(w)).toBe('0')
    await keyDown('End')
    expect(currentStep(w)).toBe(String(typed.steps.length - 1))
    await w.get('[data-test=step-prev]').trigger('click')
    expect(w.get('[data-test=step-counter]').text()).toBe(`Step ${typed.steps.length - 1} / ${typed.steps.length}`)
    await w.get('[data-test=step-first]').trigger('click')
    expect(currentStep(w)).toBe('0')

    const withEvidence = typed.steps.find((s) => (s.view.committed?.length ?? 0) > 0)
    expect(withEvidence, 'a step with committed evidence').toBeDefined()
    await w.get(`[data-test=trajectory-steps] li.step[data-t="${withEvidence!.t}"]`).trigger('click')
    const step = w.get('[data-test=step-detail]')
    expect(step.attributes('data-t')).toBe(String(withEvidence!.t))
    const shown = step.findAll('[data-test=committed-evidence] li')
    expect(shown.map((li) => Number(li.attributes('data-sentence')))).toEqual(withEvidence!.view.committed!.map((c) => c.sentenceId))
    expect(shown[0]!.text()).toContain(withEvidence!.view.committed![0]!.text.slice(0, 30))
    expect(step.find('[data-test=working-memory]').exists()).toBe(false)
    expect(step.findAll('.menu li[data-chosen=true]').length).toBe(withEvidence!.actions.kind === 'menu' && withEvidence!.actions.items.length > 0 ? 1 : 0)
    expect(w.findAll('[data-test=menu-preview]').length).toBeGreaterThan(0)
    if (withEvidence!.view.changes.length) expect(step.get('[data-test=step-changes]').text()).toContain(withEvidence!.view.changes[0]!)
    expect(step.get('[data-test=step-prompt] pre').text()).toBe(withEvidence!.observationText.trim())
    // A scripted policy writes no text: the page says so instead of an empty raw output.
    expect(step.find('[data-test=step-raw-none]').exists()).toBe(true)
    // Evaluation steps carry no training credit; a Harness-G evaluation stores no reward.
    expect(w.find('[data-test=step-credit]').exists()).toBe(false)
    expect(w.get('[data-test=episode-reward]').find('[data-test=no-reward]').exists()).toBe(true)

    // Unmounted, the page no longer listens to the keyboard.
    const store = useTrajectoryStore()
    await keyDown('End')
    expect(store.step).toBe(typed.steps.length - 1)
    w.unmount()
    wrapper = undefined
    await keyDown('Home')
    expect(store.step).toBe(typed.steps.length - 1)
  })

  it('Trajectory draws the path on the graph: visited nodes numbered in order, gold sentences marked, the walked part following the replay', async () => {
    const episodes = await episodesOf(demo.menuRunId)
    const typed = await Promise.all(episodes.map((e) => backend.call('runs.episode', { workspaceId: demo.workspaceId, episodeId: e.id })))
    const episode = typed.find((t) => t.path.length > 1 && t.goldEvidence.sentences.some((s) => s.sentenceId !== null)) ?? typed[0]!
    const w = await mountAt(`/workspaces/${demo.workspaceId}/episodes/${episode.id}`)
    await until(() => w.findAll('[data-test=path-node]').length > 0 && w.find('[data-test=path-node][data-gold=sentence]').exists(), 'the path graph with gold')
    const visited = [...new Set(episode.path.map((p) => p.node))]
    const numbered = w.findAll('[data-test=path-node]').filter((n) => n.attributes('data-visit') !== '')
    expect(numbered.map((n) => n.attributes('data-node')).sort()).toEqual([...visited].sort())
    for (const [i, node] of visited.entries()) expect(w.get(`[data-test=path-node][data-node="${node}"]`).attributes('data-visit')).toBe(String(i + 1))
    for (const s of episode.goldEvidence.sentences.filter((g) => g.sentenceId !== null)) {
      const el = w.find(`[data-test=path-node][data-node="s:${s.sentenceId}"]`)
      expect(el.exists(), `gold sentence ${s.sentenceId} drawn`).toBe(true)
      expect(el.attributes('data-gold')).toBe('sentence')
    }
    // At the first step only what it visited is walked; at the last, everything.
    const first = episode.path[0]!
    expect(w.get(`[data-test=path-node][data-node="${first.node}"]`).attributes('data-state')).toBe(first.t === 0 ? 'current' : 'future')
    await keyDown('End')
    const last = episode.path[episode.path.length - 1]!
    expect(w.get(`[data-test=path-node][data-node="${last.node}"]`).attributes('data-state')).toBe(last.t === episode.steps.length - 1 ? 'current' : 'done')
    expect(w.get('[data-test=path-walked]').attributes('d')).toMatch(/^M/)
    // The gold panel says what the episode did with each gold sentence.
    const statuses = w.findAll('[data-test=gold-evidence] li[data-sentence]').map((li) => li.attributes('data-status'))
    expect(statuses).toEqual(episode.goldEvidence.sentences.map((s) => s.status))
  })

  it('Trajectory shows a Harness-1 step with its working memory and what it changed, and the reward with each component at the end', async () => {
    const episode = (await episodesOf(demo.harness1RunId))[0]!
    const typed = await backend.call('runs.episode', { workspaceId: demo.workspaceId, episodeId: episode.id })
    const w = await mountAt(`/workspaces/${demo.workspaceId}/episodes/${episode.id}`)
    await until(() => w.findAll('[data-test=trajectory-steps] li.step').length === typed.steps.length, 'steps shown')
    const withCurated = typed.steps.find((s) => (s.view.memory?.curated.length ?? 0) > 0)
    expect(withCurated, 'a step with a curated item').toBeDefined()
    for (let i = 0; i < withCurated!.t; i++) await keyDown('ArrowRight')
    const memory = withCurated!.view.memory!
    const step = w.get('[data-test=step-detail]')
    expect(step.attributes('data-t')).toBe(String(withCurated!.t))
    const shown = step.get('[data-test=working-memory]')
    expect(shown.text()).toContain(`[Context: ${memory.budget.used}/${memory.budget.limit}]`)
    expect(shown.get('[data-test=memory-curated]').text()).toContain(`Curated (${memory.curated.length})`)
    expect(shown.get('[data-test=memory-curated]').text()).toContain(memory.curated[0]!.id)
    expect(step.get('[data-test=step-changes]').text()).toContain(withCurated!.view.changes[0]!)
    expect(step.find('[data-test=committed-evidence]').exists()).toBe(false)
    // The reward at the end: the total and each component, with the catalogue's labels.
    const reward = w.get('[data-test=episode-reward]')
    const total = catalog.metrics.find((m) => m.name === 'reward.total')!
    expect(reward.get('tr[data-metric="reward.total"]').text()).toContain(total.label)
    expect(reward.get('tr[data-metric="reward.total"] .value').text()).toMatch(/^−?\d+\.\d{3}$/)
    const components = Object.keys(typed.metrics).filter((n) => n.startsWith('reward.') && n !== 'reward.total')
    expect(components.length).toBeGreaterThan(2)
    for (const name of components) expect(reward.find(`tr[data-metric="${name}"]`).exists(), name).toBe(true)
    expect(reward.get('tr[data-metric="reward.turnPenalty"]').text()).toContain('Reward term: Turn penalty')
    // Curated documents are the path's paragraph nodes.
    await until(() => w.findAll('[data-test=path-node][data-kind=paragraph]').length > 0, 'curated paragraphs on the path')
  })

  it('Run page filters episodes on the backend and says how correctness is judged', async () => {
    const all = await episodesOf(demo.menuRunId)
    const w = await mountAt(`/workspaces/${demo.workspaceId}/runs/${demo.menuRunId}`)
    await until(() => w.findAll('[data-test=episodes-table] tbody tr[data-episode]').length === all.length, 'episodes listed')
    const word = all[1]!.question.split(/\s+/).find((x) => x.length > 5)!.replace(/[^\p{L}\p{N}]/gu, '')
    const expected = all.filter((e) => e.question.toLowerCase().includes(word.toLowerCase())).map((e) => String(e.id))
    const before = counting.calls('runs.episodes')
    await w.get('[data-test=filter-question]').setValue(word)
    await until(() => counting.calls('runs.episodes') > before && w.findAll('[data-test=episodes-table] tbody tr[data-episode]').length === expected.length, 'the question filter applied')
    expect(w.findAll('[data-test=episodes-table] tbody tr[data-episode]').map((r) => r.attributes('data-episode'))).toEqual(expected)
    expect(w.get('[data-test=episode-count]').text()).toContain(`${expected.length} of ${all.length} episodes match`)
    await w.get('[data-test=filter-clear]').trigger('click')
    await until(() => w.findAll('[data-test=episodes-table] tbody tr[data-episode]').length === all.length, 'filters cleared')

    await w.get('[data-test=filter-correct]').setValue('wrong:sp')
    const wrong = all.filter((e) => e.metrics['sp.f1'] !== null && e.metrics['sp.f1']! < 0.5).map((e) => String(e.id))
    await until(() => w.findAll('[data-test=episodes-table] tbody tr[data-episode]').length === wrong.length, 'the correctness filter applied')
    expect(w.get('[data-test=filter-correct-note]').text()).toContain('Judged by SP F1 at 50.0%')
    expect(w.get('[data-test=filter-correct] option[value="correct:answer"]').text()).toContain('F1 (official HotpotQA/2Wiki) ≥ 50.0%')
    await w.get('[data-test=filter-correct]').setValue('')
    // A Harness-G evaluation stores no reward: no reward range is offered; end reasons come with their counts.
    expect(w.find('[data-test=filter-reward-min]').exists()).toBe(false)
    const reasons = w.findAll('[data-test=filter-end-reason] option').slice(1)
    expect(reasons.length).toBeGreaterThan(0)
    await w.get('[data-test=filter-end-reason]').setValue(reasons[0]!.attributes('value'))
    const reason = reasons[0]!.attributes('value')
    await until(() => w.findAll('[data-test=episodes-table] tbody tr[data-episode]').length === all.filter((e) => e.endReason === reason).length, 'the end-reason filter applied')

    // Harness-1: the reward range reads reward.total.
    await mountAt(`/workspaces/${demo.workspaceId}/runs/${demo.harness1RunId}`)
    const h1 = await episodesOf(demo.harness1RunId)
    await until(() => wrapper!.find('[data-test=filter-reward-min]').exists(), 'the reward filter')
    const top = Math.max(...h1.map((e) => e.metrics['reward.total']!))
    await wrapper!.get('[data-test=filter-reward-min]').setValue(String(top))
    await until(() => wrapper!.findAll('[data-test=episodes-table] tbody tr[data-episode]').length === h1.filter((e) => e.metrics['reward.total'] === top).length, 'the reward filter applied')
  })

  it('Run page offers "compare with…" episodes of other runs on the question, and the Trajectory page shows the two side by side, aligned by step', async () => {
    const menu = (await episodesOf(demo.menuRunId))[0]!
    const h1 = (await episodesOf(demo.harness1RunId)).find((e) => e.questionId === menu.questionId)!
    expect(h1, 'the Harness-1 run answered the same question').toBeDefined()
    const w = await mountAt(`/workspaces/${demo.workspaceId}/runs/${demo.menuRunId}`)
    await until(() => w.find(`[data-test=episodes-table] tr[data-episode="${menu.id}"]`).exists(), 'episodes listed')
    await w.get(`tr[data-episode="${menu.id}"] [data-test=compare-with]`).trigger('click')
    await until(() => w.find('[data-test=comparable-runs]').exists(), 'the comparable episodes')
    const link = w.get(`[data-test=comparable-runs] a[data-compare="${h1.id}"]`)
    expect(link.attributes('href')).toMatch(new RegExp(`/episodes/${menu.id}\\?compare=${h1.id}$`))

    const a = await backend.call('runs.episode', { workspaceId: demo.workspaceId, episodeId: menu.id })
    const b = await backend.call('runs.episode', { workspaceId: demo.workspaceId, episodeId: h1.id })
    const t = await mountAt(`/workspaces/${demo.workspaceId}/episodes/${menu.id}?compare=${h1.id}`)
    await until(() => t.findAll('[data-test=trajectory-pane]').length === 2, 'two panes')
    const steps = Math.max(a.steps.length, b.steps.length)
    expect(t.findAll('[data-test=trajectory-steps] li.step').length).toBe(steps)
    expect(t.get('[data-test=step-counter]').text()).toBe(`Step 1 / ${steps}`)
    const panes = t.findAll('[data-test=trajectory-pane]')
    expect(panes.map((p) => p.attributes('data-episode'))).toEqual([String(a.id), String(b.id)])
    expect(panes[0]!.find('[data-test=committed-evidence]').exists()).toBe(true)
    expect(panes[1]!.find('[data-test=working-memory]').exists()).toBe(true)
    // Both panes follow the one stepper; the shorter episode says it has ended.
    await keyDown('End')
    for (const pane of t.findAll('[data-test=trajectory-pane]')) {
      const detail = pane.find('[data-test=step-detail]')
      if (detail.exists()) expect(detail.attributes('data-t')).toBe(String(steps - 1))
      else expect(pane.get('[data-test=step-ended]').text()).toMatch(/ended after \d+ step/)
    }
    // The compare picker lists the other run's episode and shows it chosen.
    expect((t.get('[data-test=compare-select]').element as HTMLSelectElement).value).toBe(String(h1.id))
  })

  it('Ablations pick metrics by catalogue label and show differences in the metric unit, coloured only where the CI excludes zero', async () => {
    const w = await mountAt(`/workspaces/${demo.workspaceId}/ablations`)
    await until(() => w.find('[data-test=ablation-metric]').exists(), 'the comparison form')
    const options = w.findAll('[data-test=ablation-metric] option')
    expect(options.find((o) => o.attributes('value') === 'paragraph.recall')!.text()).toBe(catalog.metrics.find((m) => m.name === 'paragraph.recall')!.label)
    expect(w.findAll('[data-test=ablation-metric] optgroup').length).toBeGreaterThan(1)
    await w.get('[data-test=ablation-metric]').setValue('paragraph.recall')
    await w.get('[data-test=ablation-candidate]').setValue(true)
    await w.get('form').trigger('submit')
    await until(() => w.find('[data-test=ablation-table] tbody tr').exists(), 'the comparison')
    const row = w.get('[data-test=ablation-table] tbody tr')
    expect(row.text()).toMatch(/\d+\.\d%/)
    expect(row.text()).toMatch(/[+−±]\d+\.\d pp/)
    // Coloured by the CI, not the sign: the judgement is the backend's interval against zero.
    const baselineRunId = Number((w.get('[data-test=ablation-baseline]').element as HTMLSelectElement).value)
    const candidate = Number((w.get('[data-test=ablation-candidate]').element as HTMLInputElement).value)
    const [c] = (await backend.call('runs.compare', { workspaceId: demo.workspaceId, baselineRunId, runIds: [candidate], metric: 'paragraph.recall' })).comparisons
    const excludesZero = c!.lower !== null && c!.upper !== null && (c!.lower > 0 || c!.upper < 0)
    expect(row.attributes('data-judgement')).toBe(excludesZero ? (c!.lower! > 0 ? 'better' : 'worse') : 'neutral')
    expect(row.get('[data-test=difference]').classes()).toContain(row.attributes('data-judgement'))
    expect(w.get('[data-test=difference-chart]').text()).toMatch(/pp/)
  })

  it('removes its event listeners on unmount: a job event no longer reaches the Runs store', async () => {
    const before = counting.listeners()
    const w = await mountAt(`/workspaces/${demo.workspaceId}/runs`)
    await until(() => w.findAll('[data-test=runs-table] tbody tr').length === 2, 'runs listed')
    expect(counting.listeners()).toBeGreaterThan(before)
    const evalJob = (await backend.call('job.list', { workspaceId: demo.workspaceId, limit: 50 })).find((j) => j.kind === 'eval.run')
    expect(evalJob).toBeDefined()
    const listed = counting.calls('runs.list')
    backend.services.events.emit('job.status', evalJob!)
    await until(() => counting.calls('runs.list') > listed, 'a refresh on the job event')

    w.unmount()
    wrapper = undefined
    expect(counting.listeners()).toBe(before)
    const after = counting.calls('runs.list')
    backend.services.events.emit('job.status', evalJob!)
    await settle()
    expect(counting.calls('runs.list')).toBe(after)
  })
})
