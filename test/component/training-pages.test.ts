/**
 * The Rewards page and the Training section of the Runs page against the real backend in-process (real
 * job worker): fields come from the training catalogue, configs save and load, a run launched from a
 * saved config grows its charts on job events, and the held-out table and step rollouts render.
 */
import type { VueWrapper } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { RouteOutput } from '../../preload/contract'
import { provideApi } from '../../renderer/src/api'
import type { TestBackend } from '../helpers/services'
import { countingApi, type CountingApi, mountApp, settle, startJobBackend, until, ingestedWorkspace } from './fixtures'

describe('Rewards page and Training section', () => {
  let backend: TestBackend
  let counting: CountingApi
  let workspaceId: string
  let questions = 0
  let catalog: RouteOutput<'training.catalog'>
  let harnessMetrics: RouteOutput<'harness.catalog'>['metrics']
  let wrapper: VueWrapper | undefined

  beforeAll(async () => {
    backend = await startJobBackend()
    counting = countingApi(backend)
    provideApi(counting.api)
    workspaceId = await ingestedWorkspace(backend, 'Training pages', { kind: 'demo', seed: 3, size: 0.5 })
    questions = (await backend.call('questions.sets', { workspaceId }))[0]!.questions
    catalog = await backend.call('training.catalog', {})
    harnessMetrics = (await backend.call('harness.catalog', {})).metrics
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
  const field = (w: VueWrapper, name: string) => w.get(`label[data-field="${name}"] input`)
  const type = async (w: VueWrapper, name: string, value: number) => {
    await field(w, name).setValue(String(value))
    await settle()
  }

  it('Rewards page: a labelled field per reward term with its description, default and warning; Harness-1 weights when that term is weighted; loss clip bounds by loss', async () => {
    const w = await mountAt(`/workspaces/${workspaceId}/rewards`)
    await until(() => w.find('[data-test=reward-terms]').exists(), 'the reward form')
    expect(w.get('[data-test=training-note]').text()).toContain("and so can an F32 GGUF model's own weights")
    const terms = w.findAll('[data-test=reward-terms] [data-term]')
    expect(terms.map((t) => t.attributes('data-term'))).toEqual(catalog.rewardTerms.map((t) => t.name))
    for (const t of catalog.rewardTerms) {
      const el = w.get(`[data-term="${t.name}"]`)
      expect(el.text()).toContain(t.label)
      expect(el.text()).toContain(t.description)
      expect(el.get('[data-test=field-default]').text()).toContain(`default ${t.defaultWeight}`)
      expect(el.find('[data-test=term-warning]').exists(), t.name).toBe(t.warning !== null)
      expect(Number((el.get('input').element as HTMLInputElement).value)).toBe(t.defaultWeight)
    }
    expect(w.find('textarea').exists()).toBe(false)
    expect(w.get('[data-term="sp.recall"] [data-test=term-warning]').text()).toMatch(/recall/)

    expect(w.find('[data-test=harness1-weights]').exists()).toBe(false)
    await type(w, 'harness1', 1)
    const h1 = w.get('[data-test=harness1-weights]')
    expect(h1.findAll('label[data-field^="h1."]').length).toBe(catalog.harness1Weights.length)
    const beta = catalog.harness1Weights.find((x) => x.name === 'beta')!
    expect(h1.get('label[data-field="h1.beta"]').text()).toContain(`published ${beta.published}`)
    await type(w, 'h1.diversity', 0.5)
    expect(h1.text()).toContain('1 edited')
    await type(w, 'harness1', 0)
    expect(w.find('[data-test=harness1-weights]').exists()).toBe(false)

    // The loss decides which clip bounds are offered.
    await w.get('[data-test=loss]').setValue('ppo-clip')
    await settle()
    expect(w.find('label[data-field="clipEps"]').exists()).toBe(true)
    expect(w.find('label[data-field="dualClip"]').exists()).toBe(true)
    expect(w.find('label[data-field="cispoHigh"]').exists()).toBe(false)
    await w.get('[data-test=loss]').setValue('cispo')
    await settle()
    expect(w.find('label[data-field="clipEps"]').exists()).toBe(false)
    expect(w.get('label[data-field="cispoLow"]').text()).toContain('default 0')
    expect(w.get('label[data-field="cispoHigh"]').text()).toContain('default 5')
    // Credit options follow the environment: the free-query environment has no previews, so outcome only.
    await w.get('[data-test=train-environment-default]').setValue('free-query')
    await settle()
    expect(w.findAll('[data-test=credit-scheme] option').map((o) => o.attributes('value'))).toEqual(catalog.credit.filter((c) => !c.needsPreviews).map((c) => c.name))
    await w.get('[data-test=train-environment-default]').setValue('graph-menu')
    await settle()
    expect(w.findAll('[data-test=credit-scheme] option').map((o) => o.attributes('value'))).toEqual(catalog.credit.map((c) => c.name))
    // A field that is not a number is marked and not taken.
    await field(w, 'groupSize').setValue('2.5')
    await settle()
    expect(w.get('label[data-field="groupSize"]').text()).toMatch(/must be a whole number/)
  })

  it('Rewards page: presets, save as, list, load and delete named configs; a bad config shows the backend message', async () => {
    const w = await mountAt(`/workspaces/${workspaceId}/rewards`)
    await until(() => w.find('[data-test=reward-terms]').exists(), 'the reward form')
    await w.get('[data-test=reward-preset]').setValue('answer-f1')
    await settle()
    expect(Number((field(w, 'answer.f1').element as HTMLInputElement).value)).toBe(1)
    expect(Number((field(w, 'sp.f1').element as HTMLInputElement).value)).toBe(0)
    await w.get('[data-test=reward-preset]').setValue('sp-f1')
    await settle()
    await type(w, 'cost.turn', 0.02)
    expect((w.get('[data-test=reward-preset]').element as HTMLSelectElement).value).toBe('')
    await w.get('[data-test=credit-scheme]').setValue('outcome')
    for (const [name, v] of [['groupSize', 2], ['questionsPerStep', 2], ['steps', 4], ['evalInterval', 2], ['seed', 9]] as const) await type(w, name, v)
    await w.get('[data-test=config-name]').setValue('tiny')
    await w.get('[data-test=config-save]').trigger('submit')
    await until(() => w.find('[data-test=config-list] tr[data-config="tiny"]').exists(), 'the saved config listed')
    const saved = (await backend.call('training.configs.list', { workspaceId })).find((c) => c.name === 'tiny')!
    expect(saved.config).toMatchObject({ groupSize: 2, questionsPerStep: 2, steps: 4, evalInterval: 2, seed: 9, credit: { scheme: 'outcome' }, reward: { weights: { 'sp.f1': 1, 'cost.turn': 0.02 } } })

    await w.get('[data-test=config-reset]').trigger('click')
    await settle()
    expect(Number((field(w, 'groupSize').element as HTMLInputElement).value)).toBe(catalog.defaults.groupSize)
    await w.get('[data-config="tiny"] [data-test=config-load]').trigger('click')
    await settle()
    expect(Number((field(w, 'groupSize').element as HTMLInputElement).value)).toBe(2)
    expect(Number((field(w, 'cost.turn').element as HTMLInputElement).value)).toBe(0.02)
    expect(w.get('[data-test=config-notice]').text()).toBe('Loaded "tiny"')

    // Every weight at 0: the backend refuses and says why.
    await type(w, 'sp.f1', 0)
    await type(w, 'cost.turn', 0)
    await w.get('[data-test=config-name]').setValue('nothing')
    await w.get('[data-test=config-save]').trigger('submit')
    await until(() => w.find('[data-test=rewards-error]').exists(), 'the refusal')
    expect(w.get('[data-test=rewards-error]').text()).toMatch(/The reward weighs no term/)

    await backend.call('training.configs.save', { workspaceId, name: 'doomed', config: { environment: 'graph-menu' } })
    await mountAt(`/workspaces/${workspaceId}/rewards`)
    await until(() => wrapper!.find('[data-config="doomed"]').exists(), 'the other config')
    await wrapper!.get('[data-config="doomed"] [data-test=config-delete]').trigger('click')
    await until(() => !wrapper!.find('[data-config="doomed"]').exists(), 'the config deleted')
    expect((await backend.call('training.configs.list', { workspaceId })).map((c) => c.name)).toEqual(['tiny'])
  })

  it('Training section: refuses overlapping ranges with the backend message, then launches from a saved config and its charts grow with each step', async () => {
    // The config the Rewards test saves through the page (saved here too, so this test stands alone).
    await backend.call('training.configs.save', {
      workspaceId, name: 'tiny',
      config: { environment: 'graph-menu', groupSize: 2, questionsPerStep: 2, steps: 4, evalInterval: 2, seed: 9, credit: { scheme: 'outcome', lambda: 0.5 }, reward: { weights: { 'sp.f1': 1, 'cost.turn': 0.02 } } },
    })
    const w = await mountAt(`/workspaces/${workspaceId}/training`)
    await until(() => w.find('[data-test=train-config]').exists(), 'the training launcher')
    expect(w.get('[data-test=training-section]').text()).toContain('external trainers (verl, TRL, OpenRLHF) through the environment server')
    expect(w.find('[data-test=lexical-note]').exists()).toBe(true)
    expect(w.findAll('[data-test=train-environment] option').map((o) => o.attributes('value'))).toEqual(catalog.environments.filter((e) => e.headDriven).map((e) => e.name))
    // The demo arrives split; ranges of the whole set are what this test overlaps.
    await w.get('[data-test=train-split]').setValue('')
    await w.get('[data-test=heldout-split]').setValue('')
    await w.get('[data-test=train-limit]').setValue('20')
    await w.get('[data-test=heldout-offset]').setValue('15')
    await w.get('[data-test=heldout-limit]').setValue('6')
    await w.get('[data-test=training-launcher]').trigger('submit')
    await until(() => w.find('[data-test=training-error]').exists(), 'the overlap refusal')
    expect(w.get('[data-test=training-error]').text()).toBe('The train split (questions 0..19) and the held-out split (15..20) of set 1 overlap by 5: held-out questions must never be trained on')

    await w.get('[data-test=heldout-offset]').setValue(String(questions - 6))
    await w.get('[data-test=train-name]').setValue('component run')
    const refreshes = counting.calls('training.run')
    await w.get('[data-test=training-launcher]').trigger('submit')
    await until(() => w.find('[data-test=training-run]').exists(), 'the launched run selected')
    expect(w.find('[data-test=training-error]').exists()).toBe(false)
    const points = () => Number(w.find('[data-test=chart-reward]').attributes('data-steps') ?? 0)
    await until(() => w.get('[data-test=training-run]').attributes('data-status') === 'done' && points() === 4, 'the run done with a point per step').catch((err: unknown) => {
      throw new Error(`${String(err)}; status ${w.get('[data-test=training-run]').attributes('data-status')}, points ${points()}`)
    })
    // The page followed the run on its job events without a reload. (How many intermediate states it drew
    // depends on how refreshes coalesce on a loaded machine, so the test does not count them.)
    expect(counting.calls('training.run') - refreshes).toBeGreaterThan(0)
    expect(w.get('[data-test=training-progress]').text()).toBe('4 / 4 steps')
    // A head run's setup names its loss, learning rate and entropy bonus.
    expect(w.get('[data-test=training-setup]').text()).toMatch(/ · cispo \(Weight clip lo 0, Weight clip hi 5\) · lr [0-9.e-]+ · entropy [0-9.e-]+ · G=/)
  }, 600_000)

  it('Training section: a GGUF run learns from rewards or imitates a scripted policy that drives the chosen environment (a warm start)', async () => {
    const w = await mountAt(`/workspaces/${workspaceId}/training`)
    await until(() => w.find('[data-test=train-config]').exists(), 'the training launcher')
    await w.get('[data-test=train-policy-kind]').setValue('gguf')
    const teacher = () => w.get('[data-test=train-gguf-teacher]')
    const offered = () => teacher().findAll('option').map((o) => o.text())
    const ranges = () => w.get('[data-test=train-ranges]').text()
    const choose = async (environment: string) => {
      await w.get('[data-test=train-environment]').setValue(environment)
      await settle()
    }
    // The prompt option a warm start on free query is measured with, off by default (the contract's default).
    expect((w.get('[data-test=train-gguf-restate-question]').element as HTMLInputElement).checked).toBe(false)
    await choose('free-query')
    expect(offered()).toEqual(['rewards (RL)', ...['greedy', 'search-first', 'random', 'oracle'].map((n) => `imitating ${n} (supervised warm start)`)])
    expect((w.get('[data-test=train-gguf-extractive-queries]').element as HTMLInputElement).checked).toBe(false)
    expect(ranges()).toContain("the GGUF model's own weights train")
    await teacher().setValue('search-first')
    await settle()
    expect(ranges()).toContain('the GGUF model imitates search-first (cross-entropy on its choices, no reward')
    expect(ranges()).not.toContain('credit ·')
    // search-first drives free query only: on the menu the choice falls back to rewards.
    await choose('graph-menu')
    expect(offered()).toEqual(['rewards (RL)', ...['greedy', 'random', 'oracle'].map((n) => `imitating ${n} (supervised warm start)`)])
    // The menu's policy writes no query: no extractive option.
    expect(w.find('[data-test=train-gguf-extractive-queries]').exists()).toBe(false)
    expect(ranges()).toContain("the GGUF model's own weights train")
    await choose('stateful')
    expect(offered()).toEqual(['rewards (RL)', 'imitating scripted-tools (supervised warm start)'])
  })

  it("Training section: the head's warm start follows the environment's default (oracle on the menu and free query, none on Harness-1) and a launch trains with it", async () => {
    const w = await mountAt(`/workspaces/${workspaceId}/training`)
    await until(() => w.find('[data-test=train-config]').exists(), 'the training launcher')
    await w.get('[data-test=train-config]').setValue('')
    await settle()
    const warm = () => w.get('[data-test=train-warm-start]')
    const ranges = () => w.get('[data-test=train-ranges]').text()
    const choose = async (environment: string) => {
      await w.get('[data-test=train-environment]').setValue(environment)
      await settle()
    }
    const defaultOf = (environment: string) => catalog.environments.find((e) => e.name === environment)!.warmStart?.teacher ?? ''
    expect(defaultOf('graph-menu')).toBe('oracle')
    expect(defaultOf('stateful')).toBe('')
    await choose('stateful')
    expect((warm().element as HTMLSelectElement).value).toBe('')
    expect(warm().findAll('option').map((o) => o.text())).toEqual(['none (RL from a random head)', 'imitating scripted-tools, then RL'])
    expect(ranges()).not.toContain('first imitates')
    await choose('graph-menu')
    expect((warm().element as HTMLSelectElement).value).toBe('oracle')
    expect(ranges()).toContain('the head first imitates oracle on the train questions, then RL')
    // The GGUF policy has its own teacher option: no head warm start there.
    await w.get('[data-test=train-policy-kind]').setValue('gguf')
    await settle()
    expect(w.find('[data-test=train-warm-start]').exists()).toBe(false)
    await w.get('[data-test=train-policy-kind]').setValue('head')
    await settle()
    await w.get('[data-test=train-split]').setValue('')
    await w.get('[data-test=heldout-split]').setValue('')
    await w.get('[data-test=train-limit]').setValue('12')
    await w.get('[data-test=heldout-offset]').setValue(String(questions - 4))
    await w.get('[data-test=heldout-limit]').setValue('4')
    await w.get('[data-test=train-steps]').setValue('1')
    await w.get('[data-test=train-group-size]').setValue('2')
    await w.get('[data-test=train-questions-per-step]').setValue('2')
    await w.get('[data-test=train-name]').setValue('warm-start run')
    await w.get('[data-test=training-launcher]').trigger('submit')
    await until(() => w.find('[data-test=training-run]').exists() && w.get('[data-test=training-run]').attributes('data-status') === 'done', 'the warm-started run done')
    const runId = (await backend.call('training.runs', { workspaceId })).find((r) => r.name === 'warm-start run')!.id
    const detail = await backend.call('training.run', { workspaceId, runId })
    expect(detail.config.warmStart).toMatchObject({ teacher: 'oracle', rounds: 0 })
    const report = detail.steps[0]!.warmStart
    expect(report?.teacher).toBe('oracle')
    expect(report!.samples).toBeGreaterThan(0)
    // The run panel says what the warm start did.
    await until(() => w.find('[data-test=training-warm-start]').exists(), 'the warm start line')
    expect(w.get('[data-test=training-warm-start]').text()).toContain(`Warm start: imitated oracle on ${report!.questions} train questions`)
  }, 600_000)

  it('Training section: a finished run shows every chart from its diagnostics, held-out before/after with CIs, and the rollouts of a step with trajectory links', async () => {
    const runId = (await backend.call('training.runs', { workspaceId })).find((r) => r.name === 'component run')!.id
    const detail = await backend.call('training.run', { workspaceId, runId })
    const w = await mountAt(`/workspaces/${workspaceId}/training`)
    await until(() => w.find(`[data-test=training-runs] tr[data-run="${runId}"]`).exists(), 'the run listed')
    const row = w.get(`[data-test=training-runs] tr[data-run="${runId}"]`)
    expect(row.attributes('data-status')).toBe('done')
    expect(row.get('[data-test=steps-done]').text()).toBe('4 / 4')
    expect(row.text()).toContain('lexical stand-in')
    await row.get('[data-test=select-training-run]').trigger('click')
    await until(() => w.find('[data-test=training-charts]').exists(), 'the charts')
    for (const name of ['reward', 'zero-advantage', 'equivalence', 'spanning', 'entropy', 'grad-norm']) {
      expect(w.find(`[data-test=chart-${name}]`).exists(), name).toBe(true)
    }
    const reward = w.get('[data-test=chart-reward]')
    const rewardPoints = reward.findAll('circle[data-series=reward]')
    expect(rewardPoints.map((c) => Number(c.attributes('data-step')))).toEqual(detail.steps.map((s) => s.step))
    expect(reward.get('path').attributes('d')).toMatch(/^M[\d.]+,[\d.]+(L[\d.]+,[\d.]+){3}$/)
    expect(reward.get('figcaption').text()).toBe('Reward: mean and components')
    const zero = w.get('[data-test=chart-zero-advantage]')
    expect(zero.findAll('.legend li').map((li) => li.text())).toEqual(['Zero-advantage rate', 'Zero advantage: all wrong', 'Zero advantage: all correct'])
    expect(zero.findAll('circle[data-series=allWrongRate]').length).toBe(4)
    expect(zero.text()).toMatch(/\d+\.\d%/)
    // The held-out curve has points only at evaluation steps (0 and 2 with an interval of 2), and the final evaluation after step 3.
    expect(w.findAll('[data-test=chart-held-out] circle').map((c) => Number(c.attributes('data-step')))).toEqual([0, 2, 4])
    // Entropy only where the step made an update.
    expect(w.findAll('[data-test=chart-entropy] circle').length).toBe(detail.steps.filter((s) => s.keptGroups > 0).length)
    expect(w.get('[data-test=chart-held-out] figcaption').text()).toContain('SP F1')

    const heldOut = w.get('[data-test=held-out-table]')
    expect(heldOut.findAll('tbody tr').map((r) => r.attributes('data-metric'))).toEqual(['sp.f1', 'sp.recall', 'sp.precision', 'sp.allGold', 'evidence.count'])
    expect(heldOut.get('tbody tr[data-metric="sp.f1"]').text()).toContain('SP F1')
    // Labels from the metric catalogue (the harness catalogue's entry where it has one, else the training catalogue's).
    const labelOf = (name: string) => (harnessMetrics.find((m) => m.name === name) ?? catalog.metrics.find((m) => m.name === name))!.label
    expect(heldOut.get('tbody tr[data-metric="sp.allGold"]').text()).toContain(labelOf('sp.allGold'))
    expect(heldOut.get('tbody tr[data-metric="evidence.count"]').text()).toContain(labelOf('evidence.count'))
    expect(heldOut.get('tbody tr[data-metric="sp.f1"] td .value').text()).toMatch(/^\d{1,3}\.\d%$/)
    expect(heldOut.get('tbody tr[data-metric="sp.f1"]').text()).toMatch(/[+−±]\d+\.\d pp/)
    expect(heldOut.get('tbody tr[data-metric="sp.f1"]').text()).toMatch(/\d+ \/ \d+ \/ \d+/)

    await w.get('[data-test=rollout-step]').setValue('1')
    await until(() => w.find('[data-test=rollouts-table]').exists(), 'the rollouts of step 1')
    const rollouts = await backend.call('training.rollouts', { workspaceId, runId, step: 1 })
    const links = w.findAll('[data-test=rollouts-table] [data-test=open-rollout]')
    expect(links.length).toBe(4)
    expect(links.map((a) => a.attributes('href'))).toEqual(rollouts.rollouts.map((r) => expect.stringMatching(new RegExp(`/workspaces/${workspaceId}/episodes/${r.id}$`))))
  })

  it('Trajectory of a training rollout: the credit and advantage of each step, the training reward with its terms, and its group to compare with', async () => {
    const runId = (await backend.call('training.runs', { workspaceId })).find((r) => r.name === 'component run')!.id
    const rollouts = await backend.call('training.rollouts', { workspaceId, runId, step: 2 })
    const typed = await backend.call('runs.episode', { workspaceId, episodeId: rollouts.rollouts[0]!.id })
    const w = await mountAt(`/workspaces/${workspaceId}/episodes/${typed.id}`)
    await until(() => w.findAll('[data-test=trajectory-steps] li.step').length === typed.steps.length, 'the rollout replayed')
    expect(w.get('[data-test=replay-note]').text()).toContain('Rebuilt by replaying the stored actions')
    for (const s of typed.steps) {
      expect(s.credit, `credit of step ${s.t}`).not.toBeNull()
      expect(w.get('[data-test=step-detail]').attributes('data-t')).toBe(String(s.t))
      const credit = w.get('[data-test=step-credit]')
      const signed = (v: number) => (v > 0 ? '+' : v < 0 ? '−' : '±') + Math.abs(v).toFixed(3)
      expect(credit.get('tr[data-field=advantage] .value').text()).toBe(signed(s.credit!.advantage))
      expect(credit.get('tr[data-field=frontier] .value').text()).toBe(signed(s.credit!.frontier))
      expect(credit.get('tr[data-field=enablement] .value').text()).toBe(signed(s.credit!.enablement))
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight' }))
      await settle()
    }
    expect(w.findAll('[data-test=step-advantage]').length).toBe(typed.steps.length)
    // The training reward and its terms, labelled by the training catalogue.
    const reward = w.get('[data-test=episode-reward]')
    expect(reward.get('tr[data-metric="train.reward"]').text()).toContain(catalog.metrics.find((m) => m.name === 'train.reward')!.label)
    expect(reward.get('tr[data-metric="train.reward.sp.f1"]').text()).toContain(catalog.metrics.find((m) => m.name === 'train.reward.sp.f1')!.label)
    // Its group (G = 2): the other rollout of the step on the same question.
    await until(() => w.find('[data-test=compare-select] optgroup').exists(), 'the comparable rollouts')
    const group = w.get('[data-test=compare-select] optgroup').findAll('option')
    expect(group.length).toBe(1)
    const other = rollouts.rollouts.find((r) => r.id !== typed.id && r.questionId === typed.questionId)!
    expect(group[0]!.attributes('value')).toBe(String(other.id))
  })

  it('removes its job listeners on unmount', async () => {
    const before = counting.listeners()
    const w = await mountAt(`/workspaces/${workspaceId}/training`)
    await until(() => w.find('[data-test=training-runs]').exists(), 'the training runs')
    expect(counting.listeners()).toBeGreaterThan(before)
    const job = (await backend.call('job.list', { workspaceId, limit: 50 })).find((j) => j.kind === 'train.run')!
    const listed = counting.calls('training.runs')
    backend.services.events.emit('job.status', job)
    await until(() => counting.calls('training.runs') > listed, 'a refresh on the job event')
    w.unmount()
    wrapper = undefined
    expect(counting.listeners()).toBe(before)
    const after = counting.calls('training.runs')
    backend.services.events.emit('job.status', job)
    await settle()
    expect(counting.calls('training.runs')).toBe(after)
  })
})
