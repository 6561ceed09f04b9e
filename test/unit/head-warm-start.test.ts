/**
 * The head's supervised warm start (issue 42): a scripted teacher's decisions recorded among the head's own
 * candidates, the head fitted to them by cross-entropy, DAgger rounds where the head plays and the teacher
 * labels, and the config's default per environment. Real demo world, real environments and policies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEnvironment, environmentContext, runEpisode } from '../../main/harness'
import { loadQuestions } from '../../main/experiments/questions'
import { resolveTrainConfig } from '../../main/experiments/training'
import { warmStartHead } from '../../main/experiments/training/warm-start'
import { scriptedPolicyFor } from '../../main/experiments/scripted-policy'
import { createHead } from '../../main/policy/head'
import { candidateBuilder, headInputDim, sameAction, TeacherRecorder } from '../../main/policy/head-policy'
import { imitate, imitationFit } from '../../main/rl/trainer'
import { openDemoWorkspace, type DemoWorkspace } from '../helpers/corpus'

describe('warm start of the head', () => {
  let demo: DemoWorkspace
  let total = 0
  const ranges = () => ({ train: { questionSetId: 1, offset: 0, limit: total - 10 }, heldOut: { questionSetId: 1, offset: total - 10, limit: 10 } })

  beforeAll(async () => {
    demo = await openDemoWorkspace(7, 0.6)
    total = Number(demo.db.raw.prepare('select count(*) from questions').pluck().get())
  }, 120_000)
  afterAll(async () => demo?.close())

  it('matches a teacher action to a candidate by menu id, or by a tool call with the same words', () => {
    expect(sameAction({ kind: 'menu', id: 'S3' }, { kind: 'menu', id: 'S3' })).toBe(true)
    expect(sameAction({ kind: 'menu', id: 'S3' }, { kind: 'menu', id: 'S4' })).toBe(false)
    expect(sameAction({ kind: 'tool', name: 'search', arguments: { query: 'Who  founded X' } }, { kind: 'tool', name: 'search', arguments: { query: 'who founded x ' } })).toBe(true)
    expect(sameAction({ kind: 'tool', name: 'search', arguments: { query: 'a' } }, { kind: 'tool', name: 'search', arguments: { query: 'b' } })).toBe(false)
    expect(sameAction({ kind: 'menu', id: 'S3' }, { kind: 'tool', name: 'S3', arguments: {} })).toBe(false)
  })

  it("records the oracle's choices among the head's candidates, and a fitted head agrees with them far more than a random one", async () => {
    const env = createEnvironment('graph-menu', environmentContext(demo.db.raw))
    const builder = candidateBuilder('sentence-menu')
    const recorder = new TeacherRecorder(scriptedPolicyFor('oracle', 'graph-menu', demo.db.raw), builder)
    const train = loadQuestions(demo.db.raw, ranges().train)
    for (const q of train) await runEpisode(env, recorder, q, 1, { snapshots: false })
    expect(recorder.unmatched).toBe(0)
    expect(recorder.samples.length).toBeGreaterThan(train.length)
    expect(new Set(recorder.samples.map((s) => s.type))).toEqual(new Set(['SELECT', 'LOOKUP', 'ANSWER_WITH', 'ANSWER']))
    for (const s of recorder.samples) expect(s.rows.length).toBeGreaterThan(1)
    const head = createHead('mlp', { inputDim: headInputDim('sentence-menu'), hidden: 32, seed: 3 })
    const before = imitationFit(head, recorder.samples, 1)
    const stats = imitate(head, recorder.samples, { epochs: 20, learningRate: 0.01, batchSize: 32, gradClip: 1, temperature: 1, seed: 3 })
    expect(stats.agreementBefore).toBeCloseTo(before.agreement, 12)
    expect(stats.agreementAfter).toBeGreaterThan(before.agreement + 0.3)
    expect(stats.finalLoss).toBeLessThan(before.loss / 2)
    expect(stats.epochLoss[stats.epochLoss.length - 1]!).toBeLessThan(stats.epochLoss[0]!)
  }, 300_000)

  it('a DAgger round lets the head play and the teacher label: more labels, the same seeded result twice', async () => {
    const env = createEnvironment('graph-menu', environmentContext(demo.db.raw))
    const builder = candidateBuilder('sentence-menu')
    const run = async (rounds: number) => {
      const config = resolveTrainConfig(demo.db.raw, { environment: 'graph-menu', ...ranges(), seed: 2, warmStart: { teacher: 'oracle', epochs: 5, rounds, questions: 20 } })
      const head = createHead('mlp', { inputDim: headInputDim('sentence-menu'), hidden: 32, seed: 2 })
      const report = await warmStartHead({ raw: demo.db.raw, config, env, head, builder, train: loadQuestions(demo.db.raw, config.train), progress: () => {}, throwIfCancelled: () => {} })
      return { report, params: Array.from(head.params) }
    }
    const none = await run(0)
    const one = await run(1)
    expect(none.report).toMatchObject({ teacher: 'oracle', questions: 20, rounds: 0 })
    expect(one.report.samples).toBeGreaterThan(none.report.samples)
    expect(one.report.decisions).toBeGreaterThan(none.report.decisions)
    expect((await run(1)).params).toEqual(one.params)
  }, 300_000)

  it("defaults to the environment's teacher (oracle on the menu and free query, none on Harness-1 and for a GGUF run) and refuses one that cannot drive it", () => {
    const cfg = (extra: Record<string, unknown>) => resolveTrainConfig(demo.db.raw, { ...ranges(), ...extra } as never)
    expect(cfg({ environment: 'graph-menu' }).warmStart).toMatchObject({ teacher: 'oracle', rounds: 0, rlLearningRate: 0.002 })
    expect(cfg({ environment: 'free-query' }).warmStart?.teacher).toBe('oracle')
    expect(cfg({ environment: 'stateful', reward: { weights: { harness1: 1 } } }).warmStart).toBeNull()
    expect(cfg({ environment: 'graph-menu', warmStart: null }).warmStart).toBeNull()
    expect(cfg({ environment: 'graph-menu', warmStart: { teacher: 'greedy' } }).warmStart?.teacher).toBe('greedy')
    expect(() => cfg({ environment: 'graph-menu', warmStart: { teacher: 'scripted-tools' } })).toThrow(/^Warm start: scripted-tools drives harness1-tools environments, not sentence-menu; use greedy, random, oracle/)
    expect(() => cfg({ environment: 'graph-menu', warmStart: { teacher: 'oracle' }, gguf: { modelPath: '/nowhere.gguf' } })).toThrow(/^Warm start: The warm start is the head's/)
  })
})
