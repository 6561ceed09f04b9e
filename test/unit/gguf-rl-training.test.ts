/**
 * A short RL run on stories260K's own weights through train.run's runner: every step stores its
 * rollouts, diagnostics (loss, KL to base, tokens trained) and a saved GGUF checkpoint; a run that
 * crashes after a step resumes from that step's GGUF and optimizer state, and stores the same figures and
 * the same final GGUF (byte for byte) as the uninterrupted run with the same seed; the held-out figures
 * before and after are stored; the final model carries its provenance (base SHA-256, run, step).
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { latestGgufRates, runTraining, TrainingStore } from '../../main/experiments/training'
import { LexicalAnswerer } from '../../main/policy/answerer/lexical-answerer'
import { useGgufTrainingFixture } from '../helpers/gguf-training'
import { STORIES_260K, storiesAvailable, storiesTitle, writeTinyLlama } from '../helpers/gguf'
import { getSharedRuntime } from '../../main/llm/llama-runtime'

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')

describe.skipIf(!storiesAvailable)(storiesTitle('RL on the GGUF policy weights (stories260K)'), () => {
  const f = useGgufTrainingFixture('harness-gguf-run-')

  it('trains, checkpoints a GGUF per step, resumes after a crash and stores held-out figures', async (ctx) => {
    if (f.unavailable) return ctx.skip(`GGUF trainer f.unavailable: ${f.unavailable}`)
    const config = {
      environment: 'graph-menu',
      steps: 2,
      groupSize: 3,
      questionsPerStep: 2,
      evalInterval: 1,
      seed: 3,
      credit: { scheme: 'outcome', lambda: 0 },
      train: { questionSetId: 1, offset: 0, limit: f.total - 3 },
      heldOut: { questionSetId: 1, offset: f.total - 3, limit: 3 },
      gguf: { modelPath: STORIES_260K, learningRate: 0.001, contextSize: 512 },
    }
    let crashAfter = 0
    const progress: string[] = []
    const deps = {
      answerer: new LexicalAnswerer(), appVersion: 'test', jobId: null, progress: (_p: number, _stage: string, message?: string) => void (message && progress.push(message)), throwIfCancelled: () => {}, ggufDir: f.dir, llm: getSharedRuntime,
      onStep: (step: number) => {
        if (step === crashAfter) throw new Error('simulated crash')
      },
    }
    await expect(runTraining(f.demo.db.raw, config, deps)).rejects.toThrow(/simulated crash/)
    const runId = Number(f.demo.db.raw.prepare("select max(id) from runs where kind = 'train'").pluck().get())
    expect(f.demo.db.raw.prepare('select status from runs where id = ?').pluck().get(runId)).toBe('failed')
    const store = new TrainingStore(f.demo.db.raw)
    const afterCrash = store.lastCheckpoint(runId)!
    expect(afterCrash.step).toBe(0)
    expect(existsSync(afterCrash.gguf!.modelPath)).toBe(true)

    crashAfter = -1
    const result = await runTraining(f.demo.db.raw, config, deps, runId)
    expect(f.demo.db.raw.prepare('select status from runs where id = ?').pluck().get(runId)).toBe('done')
    const steps = store.diagnostics(runId)
    expect(steps.map((s) => s.step)).toEqual([0, 1])
    for (const { diagnostics } of steps) {
      const d = diagnostics as Record<string, unknown>
      expect(typeof d['klToBase']).toBe('number')
      expect(d['heldOut']).not.toBeNull()
      expect(typeof d['tokensTrained']).toBe('number')
    }
    // Every rollout of both steps is stored.
    expect(f.demo.db.raw.prepare('select count(*) from episodes where run_id = ? and train_step is not null').pluck().get(runId)).toBe(2 * 2 * 3)
    const model = result.model!
    expect(model.step).toBe(1)
    expect(model.baseSha256).toBe(sha(STORIES_260K))
    expect(sha(model.path)).toBe(model.sha256)
    expect(model.sha256).not.toBe(model.baseSha256)
    // Only the checkpoint file is kept: step 0's was removed once step 1 was saved.
    expect(existsSync(afterCrash.gguf!.modelPath)).toBe(false)
    const summary = JSON.parse(f.demo.db.raw.prepare('select summary_json from runs where id = ?').pluck().get(runId) as string) as Record<string, unknown>
    expect(summary['before']).not.toBeNull()
    expect(summary['aggregates']).toBeTruthy()
    expect((summary['ggufModel'] as { runId: number }).runId).toBe(runId)

    // The uninterrupted run with the same config: the same step figures, held-out results and final file.
    const whole = await runTraining(f.demo.db.raw, config, { ...deps, onStep: () => {} })
    const timing = /seconds|PerSecond|Rss|secondsPerUpdate/i
    const figures = (id: number) =>
      store.diagnostics(id).map(({ step, diagnostics }) => ({ step, ...Object.fromEntries(Object.entries(diagnostics as Record<string, unknown>).filter(([k]) => !timing.test(k))) }))
    expect(figures(runId)).toEqual(figures(whole.runId))
    expect(whole.after!.perQuestion).toEqual(result.after!.perQuestion)
    expect(whole.model!.sha256).toBe(model.sha256)
    // what the launcher sizes the next run from: this machine's rates, from the newest run of the model
    const measured = latestGgufRates(f.demo.db.raw, { modelPath: STORIES_260K, environment: 'graph-menu', contextSize: 512 })
    expect(measured?.runId).toBe(whole.runId)
    for (const v of Object.values(measured!.rates)) expect(Number.isFinite(v) && v >= 0).toBe(true)
    expect(measured!.rates.secondsPerRollout).toBeGreaterThan(0)
    expect(measured!.rates.heldOutSecondsPerQuestion).toBeGreaterThan(0)
    expect(latestGgufRates(f.demo.db.raw, { modelPath: STORIES_260K, environment: 'graph-menu', contextSize: 1024 })).toBeNull()
    // and the progress lines say how long the rest takes, once a step has finished
    expect(progress.some((m) => / · about \d+ (s|min) left/.test(m))).toBe(true)
  }, 900_000)

  it('refuses a bad model file before a run row, a folder or a trainer process exists, with the named reason', async (ctx) => {
    if (f.unavailable) return ctx.skip(`GGUF trainer unavailable: ${f.unavailable}`)
    const f16 = writeTinyLlama(join(f.dir, 'bad-f16.gguf'), { weightType: 'F16', seed: 3 }).file
    const whole = readFileSync(STORIES_260K)
    const cut = join(f.dir, 'bad-cut.gguf')
    writeFileSync(cut, whole.subarray(0, whole.length - 1))
    const runs = () => Number(f.demo.db.raw.prepare("select count(*) from runs where kind = 'train'").pluck().get())
    const dir = join(f.dir, 'refused')
    for (const [file, reason] of [[f16, /bad-f16\.gguf cannot be trained: tensor .* is F16: training needs F32/], [cut, /bad-cut\.gguf cannot be trained: .*truncated/]] as const) {
      const before = runs()
      await expect(
        runTraining(
          f.demo.db.raw,
          { environment: 'graph-menu', steps: 1, train: { questionSetId: 1, offset: 0, limit: 4 }, heldOut: { questionSetId: 1, offset: f.total - 2, limit: 2 }, gguf: { modelPath: file } },
          { answerer: new LexicalAnswerer(), appVersion: 'test', jobId: null, progress: () => {}, throwIfCancelled: () => {}, ggufDir: dir, llm: getSharedRuntime },
        ),
      ).rejects.toThrow(reason)
      expect(runs()).toBe(before)
      expect(existsSync(dir)).toBe(false)
    }
  }, 300_000)
})
