/**
 * Findings and ablations with the GGUF policy (stories260K, a real model): a findings run gives every
 * training arm of every claim the GGUF model; an ablation's training cell trains the model's own weights
 * through the native trainer, resumes from its last saved step after a cancel, and its held-out cell plays
 * the trained weights; the claim text names the model by file and hash. A model the trainer cannot train
 * (F16) is refused before any cell runs. (`npm run cli -- reproduce --policy gguf` runs the whole job.)
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FindingsConfigSchema, AblationConfigSchema } from '../../preload/contract'
import { ablationDetail, runAblation, saveAblation } from '../../main/experiments/ablation'
import { saveFindings } from '../../main/experiments/findings'
import { policyText } from '../../main/experiments/findings/policy-text'
import { TrainingStore, type TrainedGguf } from '../../main/experiments/training'
import { JobCancelledError } from '../../main/jobs/protocol'
import { LexicalAnswerer } from '../../main/policy/answerer/lexical-answerer'
import { useGgufTrainingFixture } from '../helpers/gguf-training'
import { STORIES_260K, storiesAvailable, storiesTitle, writeTinyLlama } from '../helpers/gguf'
import { getSharedRuntime } from '../../main/llm/llama-runtime'

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')

const deps = (throwIfCancelled: () => void = () => {}, onTrainedModel?: (model: TrainedGguf) => Promise<void>) => ({
  answerer: new LexicalAnswerer(),
  answererSpec: { kind: 'lexical' as const },
  appVersion: 'test',
  jobId: null,
  progress: () => {},
  throwIfCancelled,
  llm: getSharedRuntime,
  ...(onTrainedModel ? { onTrainedModel } : {}),
})

describe.skipIf(!storiesAvailable)(storiesTitle('findings and ablations with the GGUF policy (stories260K)'), () => {
  const f = useGgufTrainingFixture('harness-findings-gguf-')

  it('gives every training arm of every claim the GGUF model, and refuses the GGUF policy without one', (ctx) => {
    if (f.unavailable) return ctx.skip(`GGUF trainer unavailable: ${f.unavailable}`)
    const raw = f.demo.db.raw
    const sizes = { heldOut: 2, train: 4, steps: 1, groupSize: 2, questionsPerStep: 1 }
    expect(() => saveFindings(raw, FindingsConfigSchema.parse({ questionSetId: 1, policy: 'gguf', overrides: sizes }))).toThrow(/needs its model/)
    expect(() => saveFindings(raw, FindingsConfigSchema.parse({ questionSetId: 1, policy: 'gguf', gguf: { modelPath: join(f.dir, 'absent.gguf') }, overrides: sizes }))).toThrow(/No GGUF model file at .*absent\.gguf/)
    const gguf = { modelPath: STORIES_260K, learningRate: 0.001, contextSize: 2048, maxTokens: 64 }
    const saved = saveFindings(raw, FindingsConfigSchema.parse({ questionSetId: 1, policy: 'gguf', gguf, overrides: sizes }))
    let trainedArms = 0
    for (const e of saved.experiments) {
      const ablation = ablationDetail(raw, e.ablationId)
      expect(ablation.config.base.training.gguf).toMatchObject(gguf)
      for (const row of ablation.resolved.filter((r) => r.kind === 'train')) {
        expect(row).toMatchObject({ policy: { kind: 'gguf', stage: 'after', modelPath: STORIES_260K }, unavailable: null })
        trainedArms++
      }
      // Rows that do not train (the scripted reference) keep their own policy.
      for (const row of ablation.resolved.filter((r) => r.kind === 'eval')) expect(row.policy['kind']).toBe('scripted')
    }
    // Claims 1-3: free query, and the menu with outcome, SNC and info-gain credit; 4-5: full harness (diversity on), all off, diversity off.
    expect(trainedArms).toBe(7)
  })

  it('resumes a cancelled GGUF training cell from its last saved step', async (ctx) => {
    if (f.unavailable) return ctx.skip(`GGUF trainer unavailable: ${f.unavailable}`)
    const raw = f.demo.db.raw
    const config = AblationConfigSchema.parse({
      base: {
        environment: 'graph-menu',
        policy: { kind: 'head', stage: 'after' },
        questionSetId: 1,
        offset: 0,
        limit: 2,
        seeds: [2],
        training: { offset: 2, limit: 6, steps: 2, groupSize: 2, questionsPerStep: 1, evalInterval: 2, credit: { scheme: 'outcome', lambda: 0 }, gguf: { modelPath: STORIES_260K, learningRate: 0.001, maxTokens: 64 } },
      },
      rows: [{ label: 'scripted', policy: { kind: 'scripted', name: 'greedy' } }],
      parallel: 1,
    })
    const saved = saveAblation(raw, 'gguf resume', config)
    // Each training run's final weights are handed over once (the job registers them), not at a cancel.
    const trainedModels: TrainedGguf[] = []
    const onTrainedModel = async (m: TrainedGguf) => void trainedModels.push(m)
    expect(saved.resolved[0]).toMatchObject({ kind: 'train', policy: { kind: 'gguf', stage: 'after', modelPath: STORIES_260K }, unavailable: null })
    // Cancel once the training cell has stored its first step (a state of the database, not a time).
    const steps = raw.prepare('select count(*) from train_steps where run_id = (select train_run_id from ablation_cells where ablation_id = ? and row = 0)').pluck()
    await expect(runAblation(raw, saved.id, deps(() => {
      if (Number(steps.get(saved.id) ?? 0) >= 1) throw new JobCancelledError()
    }, onTrainedModel))).rejects.toThrow(/cancelled/)
    expect(trainedModels).toEqual([])
    const stopped = ablationDetail(raw, saved.id)
    expect(stopped.status).toBe('cancelled')
    const cell = stopped.cells.find((c) => c.row === 0)!
    expect(cell.status).toBe('pending')
    const runId = cell.trainRunId!
    expect(new TrainingStore(raw).diagnostics(runId).map((d) => d.step)).toEqual([0])

    await runAblation(raw, saved.id, deps(undefined, onTrainedModel))
    const done = ablationDetail(raw, saved.id)
    expect(done.status, done.error ?? '').toBe('done')
    expect(done.cells.find((c) => c.row === 0)!.trainRunId).toBe(runId)
    // Step 0 was not played again: its rollouts are stored once; step 1 continued from step 0's weights.
    expect(new TrainingStore(raw).diagnostics(runId).map((d) => d.step)).toEqual([0, 1])
    expect(raw.prepare('select count(*) from episodes where run_id = ? and train_step = 0').pluck().get(runId)).toBe(2)
    const checkpoint = new TrainingStore(raw).lastCheckpoint(runId)!
    expect(checkpoint.head).toBeNull()
    expect(checkpoint.gguf!.modelPath).toMatch(/step-1\.gguf$/)
    expect(sha(checkpoint.gguf!.modelPath)).toBe(checkpoint.gguf!.sha256)
    // The held-out cell played the trained weights, recorded by path and hash.
    const evalRun = done.cells.find((c) => c.row === 0)!.runId!
    const evalConfig = JSON.parse(raw.prepare('select config_json from runs where id = ?').pluck().get(evalRun) as string) as { policy: Record<string, unknown> }
    expect(evalConfig.policy).toMatchObject({ kind: 'llm', modelPath: checkpoint.gguf!.modelPath, sha256: checkpoint.gguf!.sha256, trainedFrom: STORIES_260K, trainingRun: runId, step: 1 })
    const trainSummary = JSON.parse(raw.prepare('select summary_json from runs where id = ?').pluck().get(runId) as string) as { ggufModel: { sha256: string } }
    expect(trainSummary.ggufModel.sha256).toBe(checkpoint.gguf!.sha256)
    expect(trainedModels).toEqual([{ path: checkpoint.gguf!.modelPath, sha256: checkpoint.gguf!.sha256, baseModel: STORIES_260K, baseSha256: sha(STORIES_260K), runId, step: 1 }])
    // Weights moved wherever a step trained tokens (groups whose rollouts all scored alike train none).
    if (new TrainingStore(raw).diagnostics(runId).some((d) => Number((d.diagnostics as Record<string, unknown>)['tokensTrained']) > 0)) expect(checkpoint.gguf!.sha256).not.toBe(sha(STORIES_260K))
    // What a claim on this experiment says it ran.
    expect(done.ranOn!.models).toContain(`${STORIES_260K} sha256:${sha(STORIES_260K)}`)
    expect(policyText(done, 'gguf')).toMatch(new RegExp(`^GGUF policy stories260K\\.gguf \\(sha256 ${sha(STORIES_260K)}\\): its own weights trained 2 steps per arm \\(sgd lr 0\\.001, KL coef 0\\.05, KL target 0\\.5, every trainable tensor, 1 questions x 2 rollouts per step\\) in 1 trained arm;`))
  }, 900_000)

  it('refuses a model the trainer cannot train before any cell runs, with the training run\'s message', async (ctx) => {
    if (f.unavailable) return ctx.skip(`GGUF trainer unavailable: ${f.unavailable}`)
    const raw = f.demo.db.raw
    const f16 = writeTinyLlama(join(f.dir, 'f16.gguf'), { weightType: 'F16', seed: 3 }).file
    const config = AblationConfigSchema.parse({
      base: { environment: 'graph-menu', policy: { kind: 'head', stage: 'after' }, questionSetId: 1, limit: 2, training: { offset: 2, limit: 4, steps: 1, gguf: { modelPath: f16 } } },
      rows: [{ label: 'snc', training: { credit: { scheme: 'snc', lambda: 0.5 } } }],
    })
    const saved = saveAblation(raw, 'gguf f16', config)
    const runsBefore = Number(raw.prepare('select count(*) from runs').pluck().get())
    await expect(runAblation(raw, saved.id, deps())).rejects.toThrow(/f16\.gguf cannot be trained: .*F32/)
    const detail = ablationDetail(raw, saved.id)
    expect(detail.status).toBe('failed')
    expect(detail.error).toMatch(/cannot be trained/)
    expect(detail.cells.every((c) => c.status === 'pending' && c.runId === null && c.trainRunId === null)).toBe(true)
    expect(Number(raw.prepare('select count(*) from runs').pluck().get())).toBe(runsBefore)
  }, 300_000)
})
