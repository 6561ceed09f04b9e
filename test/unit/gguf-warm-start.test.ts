/**
 * A supervised warm start of stories260K through the native trainer: the oracle plays graph-menu, the
 * model records each choice as its own reply (the prompt it would have been sent, the id's tokens), and
 * every update is token-mean cross-entropy on those replies. On a fixed pair of questions the loss (the
 * cross-entropy of the teacher's replies at the current weights, measured by the trainer before each
 * update) falls step after step; the run is named a warm start; a teacher that does not speak the
 * environment's protocol is refused before a run exists.
 */
import { describe, expect, it } from 'vitest'
import { runTraining, TrainingStore } from '../../main/experiments/training'
import { getSharedRuntime } from '../../main/llm/llama-runtime'
import { LexicalAnswerer } from '../../main/policy/answerer/lexical-answerer'
import type { TokenBatch } from '../../main/rl/trainer'
import { useGgufTrainingFixture } from '../helpers/gguf-training'
import { STORIES_260K, storiesAvailable, storiesTitle } from '../helpers/gguf'

describe.skipIf(!storiesAvailable)(storiesTitle('Warm start of the GGUF policy from a teacher (stories260K)'), () => {
  const f = useGgufTrainingFixture('harness-gguf-warm-')
  const deps = () => ({ answerer: new LexicalAnswerer(), appVersion: 'test', jobId: null, progress: () => {}, throwIfCancelled: () => {}, ggufDir: f.dir, llm: getSharedRuntime })
  const config = (teacher: string) => ({
    environment: 'graph-menu',
    steps: 3,
    groupSize: 1,
    questionsPerStep: 2,
    evalInterval: 3,
    seed: 2,
    credit: { scheme: 'outcome', lambda: 0 },
    train: { questionSetId: 1, offset: 0, limit: 2 },
    heldOut: { questionSetId: 1, offset: f.total - 2, limit: 2 },
    gguf: { modelPath: STORIES_260K, optimizer: 'adamw' as const, learningRate: 0.002, teacher },
  })

  it("learns the teacher's replies: the cross-entropy on the same questions falls at every step", async (ctx) => {
    if (f.unavailable) return ctx.skip(`GGUF trainer unavailable: ${f.unavailable}`)
    const batches: TokenBatch[] = []
    const result = await runTraining(f.demo.db.raw, config('oracle'), { ...deps(), onBatch: (_step: number, b: TokenBatch) => void batches.push(b) })
    const steps = new TrainingStore(f.demo.db.raw).diagnostics(result.runId).map((s) => s.diagnostics as Record<string, number>)
    const losses = steps.map((d) => d['loss']!)
    expect(losses).toHaveLength(3)
    expect(losses[1]!).toBeLessThan(losses[0]!)
    expect(losses[2]!).toBeLessThan(losses[1]!)
    // Every decision trains, each chosen token with weight 1 / (the batch's chosen tokens); no KL term.
    for (const [i, b] of batches.entries()) {
      expect(b.decisions).toBeGreaterThan(0)
      expect(steps[i]!['decisionsTrained']).toBe(b.decisions)
      const weights = b.items.flatMap((it) => it.weights.filter((w) => w !== 0))
      expect(weights).toHaveLength(b.tokens)
      for (const w of weights) expect(w).toBeCloseTo(1 / b.tokens, 12)
      expect(b.items.every((it) => it.klWeights.every((k) => k === 0))).toBe(true)
    }
    expect(f.demo.db.raw.prepare('select name from runs where id = ?').pluck().get(result.runId)).toBe('warm start · gguf · graph-menu · from oracle')
    expect(result.model!.sha256).not.toBe(result.model!.baseSha256)
  }, 900_000)

  it('refuses a teacher that does not speak the environment\'s protocol, before a run exists', async () => {
    const runs = () => Number(f.demo.db.raw.prepare("select count(*) from runs where kind = 'train'").pluck().get())
    const before = runs()
    await expect(runTraining(f.demo.db.raw, config('scripted-tools'), deps())).rejects.toThrow(/scripted-tools drives harness1-tools environments, not sentence-menu; use greedy, random, oracle here/)
    expect(runs()).toBe(before)
  })
})
