/**
 * Rewards that fit the gold, on the MuSiQue-format fixture (paragraph-level gold only, real importer,
 * real workspace): the default training reward is a paragraph one and is non-zero; a sentence reward is
 * refused naming the term and a preset that can be computed; the zero-advantage split follows the run's
 * own reward; the env server and an ablation's training row refuse the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AblationConfigSchema, TrainParams } from '../../preload/contract'
import { CreateEpisodeBody } from '../../main/env-server/wire'
import { EpisodeSessions } from '../../main/env-server/sessions'
import { resolveAblation } from '../../main/experiments/ablation/resolve'
import { validateTrainParams } from '../../main/experiments/validate'
import { resolveTrainConfig, runTraining, TrainingStore } from '../../main/experiments/training'
import { LexicalAnswerer } from '../../main/policy/answerer'
import { computeReward, goldProfile, rewardCorrect, rewardPreset } from '../../main/rl/reward-schemes'
import { openMuSiQueWorkspace, type MuSiQueWorkspace } from '../helpers/musique-workspace'

describe('rewards that fit the gold (MuSiQue-format, paragraph gold)', () => {
  let w: MuSiQueWorkspace
  beforeAll(async () => {
    w = await openMuSiQueWorkspace()
  }, 600_000)
  afterAll(() => w?.close())

  const splits = () => ({ train: { questionSetId: 1, offset: 0, limit: 3 }, heldOut: { questionSetId: 1, offset: 3, limit: 2 } })
  const deps = { answerer: new LexicalAnswerer(), appVersion: 'test', jobId: null, progress: () => {}, throwIfCancelled: () => {} }

  it('profiles the set as paragraph and answer gold, with no sentence gold', () => {
    const p = goldProfile(w.questions)
    expect(p.levels.sort()).toEqual(['answer', 'paragraph'])
    expect(p.counts.sentence).toBe(0)
  })

  it('defaults to the paragraph preset and refuses a sentence reward with a message naming the term and a preset', () => {
    const config = resolveTrainConfig(w.db.raw, { environment: 'graph-menu', ...splits() })
    expect(config.reward.weights).toEqual(rewardPreset('paragraph-f1-all-gold').config.weights)
    expect(() => resolveTrainConfig(w.db.raw, { environment: 'graph-menu', reward: rewardPreset('sp-f1-all-gold').config, ...splits() })).toThrow(
      /Reward term "sp\.f1" \(Supporting-fact F1\) needs sentence-level \(supporting-fact\) gold, but only 0 of the 3 questions of the train split of question set 1 carry it.*"sp\.allGold".*preset "paragraph-f1-all-gold"/,
    )
    // Terms every episode has, and answer terms, are fine here.
    expect(() => resolveTrainConfig(w.db.raw, { environment: 'graph-menu', reward: { weights: { 'answer.f1': 1, 'cost.turn': 0.01 } }, ...splits() })).not.toThrow()
  })

  it('leaves reward, credit and estimator to the protocol: the Harness-1 tools train on their published reward with outcome credit', () => {
    for (const environment of ['stateful', 'transcript']) {
      const config = resolveTrainConfig(w.db.raw, { environment, ...splits() })
      expect([environment, config.reward.weights, config.credit.scheme, config.estimator]).toEqual([environment, rewardPreset('harness1-published').config.weights, 'outcome', 'grpo'])
    }
    const menu = resolveTrainConfig(w.db.raw, { environment: 'graph-menu', ...splits() })
    expect([menu.credit.scheme, menu.estimator]).toEqual(['snc', 'grpo'])
    expect(resolveTrainConfig(w.db.raw, { environment: 'free-query', ...splits() }).credit.scheme).toBe('outcome')
  })

  it('the train.run preflight stores the config resolved (the paragraph default): the worker runs what was checked', async () => {
    const asked = TrainParams.parse({ mode: 'new', config: { environment: 'graph-menu', ...splits() } })
    expect(asked.mode === 'new' && asked.config.reward).toBeUndefined()
    const queued = await validateTrainParams(w.db.raw, asked)
    if (queued.mode !== 'new') throw new Error('a new run stays new')
    expect(queued.config.reward?.weights).toEqual(rewardPreset('paragraph-f1-all-gold').config.weights)
    // What the job row stores passes the worker's parse at the thread boundary unchanged.
    expect(TrainParams.parse(JSON.parse(JSON.stringify(queued)))).toEqual(queued)
  })

  it('trains on a non-zero paragraph reward; no zero-reward group counts as all correct', async () => {
    const r = await runTraining(w.db.raw, { environment: 'graph-menu', steps: 3, groupSize: 4, questionsPerStep: 3, evalInterval: 2, seed: 2, credit: { scheme: 'outcome', lambda: 0 }, ...splits() }, deps)
    expect(r.config.reward.weights).toHaveProperty('paragraph.f1')
    const steps = new TrainingStore(w.db.raw).diagnostics(r.runId).map((s) => s.diagnostics as { reward: number; allCorrectRate: number; components: Record<string, number> })
    expect(steps).toHaveLength(3)
    expect(Math.max(...steps.map((s) => s.reward))).toBeGreaterThan(0)
    expect(Math.max(...steps.map((s) => s.components['paragraph.f1'] ?? 0))).toBeGreaterThan(0)
    for (const s of steps) if (s.reward === 0) expect(s.allCorrectRate).toBe(0)
    expect(r.before!.aggregates['paragraph.f1']!.mean).toEqual(expect.any(Number))
    expect(r.after!.aggregates['paragraph.recall']!.mean).toEqual(expect.any(Number))
  }, 600_000)

  it('judges correctness by the run’s own reward: a zero reward is never correct', () => {
    const reward = rewardPreset('sp-f1-all-gold').config
    const zero = computeReward({ 'paragraph.recall': 1 }, reward)
    expect(zero.total).toBe(0)
    expect(rewardCorrect(zero.total, reward)).toBe(false)
    const para = rewardPreset('paragraph-f1-all-gold').config
    expect(rewardCorrect(computeReward({ 'paragraph.f1': 1, 'paragraph.recall': 1 }, para).total, para)).toBe(true)
    expect(rewardCorrect(-3, { weights: { 'cost.turn': 1 }, normalisation: 'official', harness1Weights: {} })).toBeNull()
  })

  it('the env server refuses a sentence reward on a paragraph-gold question, and defaults to paragraph F1', async () => {
    const sessions = new EpisodeSessions(w.db.raw)
    const q = w.questions[0]!.rowId
    const refused = sessions.create(CreateEpisodeBody.parse({ environment: 'graph-menu', question_id: q, reward: rewardPreset('sp-f1').config }))
    await expect(refused).rejects.toMatchObject({ status: 400, field: 'reward.weights' })
    await expect(refused).rejects.toThrow(/Reward term "sp\.f1" .* needs sentence-level .*question \d+.*preset "paragraph-f1-all-gold"/)
    const episode = await sessions.create(CreateEpisodeBody.parse({ environment: 'graph-menu', question_id: q }))
    expect(episode.episode_id).toEqual(expect.any(String))
    sessions.remove(episode.episode_id)
    sessions.close()
  })

  it("an ablation's training row with a sentence reward cannot run here, saying why; the default row can", () => {
    const config = AblationConfigSchema.parse({
      base: { environment: 'graph-menu', policy: { kind: 'scripted', name: 'greedy' }, questionSetId: 1, offset: 3, limit: 2, training: { offset: 0, limit: 3 } },
      rows: [
        { label: 'sentence reward', training: { reward: rewardPreset('sp-f1-all-gold').config } },
        { label: 'default reward', training: { credit: { scheme: 'outcome' } } },
      ],
    })
    const [, sentence, byDefault] = resolveAblation(w.db.raw, config)
    expect(sentence!.unavailable).toMatch(/Reward term "sp\.f1" .*preset "paragraph-f1-all-gold"/)
    expect(byDefault!.unavailable).toBeNull()
  })
})
