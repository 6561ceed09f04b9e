/**
 * The Runs, Run, Ablations and Trajectory pages against the real backend in-process: what they offer
 * comes from the catalogue's declarations, labels and units from its metric catalogue, and the
 * trajectory from the typed step view (Harness-1 working memory, Harness-G committed evidence).
 */
import { mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { RouteOutput } from '../../preload/contract'
import { provideApi } from '../../renderer/src/api'
import type { TestBackend } from '../helpers/services'
import { appRouter, countingApi, demoRuns, settle, Shell, startJobBackend, until, type CountingApi, type DemoRuns } from './fixtures'

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
  }, 180_000)
  afterAll(() => backend?.close())
  afterEach(() => {
    wrapper?.unmount()
    wrapper = undefined
  })

  async function mountAt(path: string): Promise<VueWrapper> {
    const pinia = createPinia()
    setActivePinia(pinia)
    const router = await appRouter(path)
    wrapper = mount(Shell, { global: { plugins: [pinia, router] }, attachTo: document.body })
    await settle()
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
      await settle(1)
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
    expect(menuRow.get('[data-metric="sp.recall"] .value').text()).toMatch(/^\d{1,3}\.\d%/)
    expect(menuRow.get('[data-metric="turns"] .value').text()).toMatch(/^\d+(\.\d)?$/)
    const h1Row = w.get(`[data-test=runs-table] tr[data-run="${demo.harness1RunId}"]`)
    expect(h1Row.get('[data-metric="reward.total"] .value').text()).toMatch(/^−?\d+\.\d{3}$/)
    expect(menuRow.get('[data-metric="sp.recall"] .ci').text()).toMatch(/^(\d{1,3}\.\d–\d{1,3}\.\d%)?$/)
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
    for (const cell of w.findAll('[data-test=episodes-table] tbody td[data-metric="sp.recall"]')) expect(cell.text()).toMatch(/^(\d{1,3}\.\d%|–)$/)
  })

  it('Trajectory shows a Harness-G step with its committed evidence and the menu with the chosen item and previews', async () => {
    const episode = (await episodesOf(demo.menuRunId))[0]!
    const typed = await backend.call('runs.episode', { workspaceId: demo.workspaceId, episodeId: episode.id })
    const w = await mountAt(`/workspaces/${demo.workspaceId}/episodes/${episode.id}`)
    await until(() => w.findAll('[data-test=trajectory-steps] li.step').length === typed.steps.length, 'steps shown')
    const withEvidence = typed.steps.find((s) => (s.view.committed?.length ?? 0) > 0)
    expect(withEvidence, 'a step with committed evidence').toBeDefined()
    const step = w.get(`[data-test=trajectory-steps] li.step[data-t="${withEvidence!.t}"]`)
    const shown = step.findAll('[data-test=committed-evidence] li')
    expect(shown.map((li) => Number(li.attributes('data-sentence')))).toEqual(withEvidence!.view.committed!.map((c) => c.sentenceId))
    expect(shown[0]!.text()).toContain(withEvidence!.view.committed![0]!.text.slice(0, 30))
    expect(step.find('[data-test=working-memory]').exists()).toBe(false)
    expect(w.findAll('[data-test=trajectory-steps] .menu li[data-chosen=true]').length).toBeGreaterThan(0)
    expect(w.findAll('[data-test=menu-preview]').length).toBeGreaterThan(0)
    if (withEvidence!.view.changes.length) expect(step.get('[data-test=step-changes]').text()).toContain(withEvidence!.view.changes[0]!)
  })

  it('Trajectory shows a Harness-1 step with its working memory and what it changed', async () => {
    const episode = (await episodesOf(demo.harness1RunId))[0]!
    const typed = await backend.call('runs.episode', { workspaceId: demo.workspaceId, episodeId: episode.id })
    const w = await mountAt(`/workspaces/${demo.workspaceId}/episodes/${episode.id}`)
    await until(() => w.findAll('[data-test=trajectory-steps] li.step').length === typed.steps.length, 'steps shown')
    const withCurated = typed.steps.find((s) => (s.view.memory?.curated.length ?? 0) > 0)
    expect(withCurated, 'a step with a curated item').toBeDefined()
    const memory = withCurated!.view.memory!
    const step = w.get(`[data-test=trajectory-steps] li.step[data-t="${withCurated!.t}"]`)
    const shown = step.get('[data-test=working-memory]')
    expect(shown.text()).toContain(`[Context: ${memory.budget.used}/${memory.budget.limit}]`)
    expect(shown.get('[data-test=memory-curated]').text()).toContain(`Curated (${memory.curated.length})`)
    expect(shown.get('[data-test=memory-curated]').text()).toContain(memory.curated[0]!.id)
    expect(step.get('[data-test=step-changes]').text()).toContain(withCurated!.view.changes[0]!)
    expect(step.find('[data-test=committed-evidence]').exists()).toBe(false)
  })

  it('Ablations pick metrics by catalogue label and show differences in the metric unit, coloured by direction', async () => {
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
    expect(['better', 'worse', 'same']).toContain(row.attributes('data-judgement'))
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
