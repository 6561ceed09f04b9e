/**
 * Findings and ablations with the GGUF policy: every training arm trains the model's own weights through
 * the native trainer (stories260K, a real model) and its held-out cells play the trained weights; each
 * claim's policy text names the model by file and hash. A cancelled GGUF training cell resumes from its
 * last saved step, and a model the trainer cannot train (F16) is refused before any cell runs.
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FindingsConfigSchema, AblationConfigSchema } from '../../preload/contract'
import { ablationDetail, runAblation, saveAblation } from '../../main/experiments/ablation'
import { findingsDetail, runFindings, saveFindings } from '../../main/experiments/findings'
import { TrainingStore } from '../../main/experiments/training'
import { JobCancelledError } from '../../main/jobs/protocol'
import { LexicalAnswerer } from '../../main/policy/answerer/lexical-answerer'
import { useGgufTrainingFixture } from '../helpers/gguf-training'
import { STORIES_260K, storiesAvailable, storiesTitle, writeTinyLlama } from '../helpers/gguf'

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')

const deps = (throwIfCancelled: () => void = () => {}) => ({
  answerer: new LexicalAnswerer(),
  answererSpec: { kind: 'lexical' as const },
  appVersion: 'test',
  jobId: null,
  progress: () => {},
  throwIfCancelled,
})

describe.skipIf(!storiesAvailable)(storiesTitle('findings and ablations with the GGUF policy (stories260K)'), () => {
  const f = useGgufTrainingFixture('harness-findings-gguf-')

  it('trains the GGUF weights in every training arm, evaluates the trained weights and names the model in each claim', async (ctx) => {
    if (f.unavailable) return ctx.skip(`GGUF trainer unavailable: ${f.unavailable}`)
    const raw = f.demo.db.raw
    const config = FindingsConfigSchema.parse({
      questionSetId: 1,
      policy: 'gguf',
      // Harness-1's tool prompt takes about 1,600 of stories260K's tokens.
      gguf: { modelPath: STORIES_260K, learningRate: 0.001, contextSize: 2048, maxTokens: 64 },
      overrides: { heldOut: 2, train: 4, steps: 1, groupSize: 2, questionsPerStep: 1 },
    })
    const saved = saveFindings(raw, config)
    await runFindings(raw, saved.id, deps())
    const detail = findingsDetail(raw, saved.id)
    expect(detail.status, detail.error ?? '').toBe('done')
    const baseSha = sha(STORIES_260K)
    expect(detail.ranOn!.models).toContain(`${STORIES_260K} sha256:${baseSha}`)
    const store = new TrainingStore(raw)
    let trainedArms = 0
    for (const e of detail.experiments) {
      const ablation = ablationDetail(raw, e.ablationId)
      for (const row of ablation.results!.rows.filter((r) => r.kind === 'train')) {
        expect(row.error).toBeNull()
        expect(row.trainRunIds).toHaveLength(1)
        // The training run trained the GGUF weights: its checkpoint is a saved GGUF that differs from the base.
        const checkpoint = store.lastCheckpoint(row.trainRunIds[0]!)!
        expect(checkpoint.head).toBeNull()
        expect(checkpoint.gguf!.modelPath).toMatch(/\.gguf$/)
        expect(existsSync(checkpoint.gguf!.modelPath)).toBe(true)
        expect(sha(checkpoint.gguf!.modelPath)).toBe(checkpoint.gguf!.sha256)
        expect(checkpoint.gguf!.sha256).not.toBe(baseSha)
        // The held-out cell played those trained weights.
        const evalConfig = JSON.parse(raw.prepare('select config_json from runs where id = ?').pluck().get(row.runIds[0]!) as string) as { policy: Record<string, unknown> }
        expect(evalConfig.policy).toMatchObject({ kind: 'llm', modelPath: checkpoint.gguf!.modelPath, sha256: checkpoint.gguf!.sha256, trainedFrom: STORIES_260K, trainingRun: row.trainRunIds[0] })
        trainedArms++
      }
    }
    // Claims 1-2: free query and menu; 3: three credit schemes; 4 (quick): full harness and all off; 5: diversity on and off.
    expect(trainedArms).toBe(9)
    const claims = detail.results!.claims
    expect(claims).toHaveLength(5)
    for (const c of claims) expect(c.policy).toMatch(new RegExp(`^GGUF policy stories260K\\.gguf \\(sha256 ${baseSha}\\): its own weights trained 1 steps per arm`))
    expect(claims[0]!.departures.join(' ')).toMatch(/the GGUF model writes its own search strings/)
  }, 1_800_000)

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
    expect(saved.resolved[0]).toMatchObject({ kind: 'train', policy: { kind: 'gguf', stage: 'after', modelPath: STORIES_260K }, unavailable: null })
    // Cancel once the training cell has stored its first step (a state of the database, not a time).
    const steps = raw.prepare('select count(*) from train_steps where run_id = (select train_run_id from ablation_cells where ablation_id = ? and row = 0)').pluck()
    await expect(runAblation(raw, saved.id, deps(() => {
      if (Number(steps.get(saved.id) ?? 0) >= 1) throw new JobCancelledError()
    }))).rejects.toThrow(/cancelled/)
    const stopped = ablationDetail(raw, saved.id)
    expect(stopped.status).toBe('cancelled')
    const cell = stopped.cells.find((c) => c.row === 0)!
    expect(cell.status).toBe('pending')
    const runId = cell.trainRunId!
    expect(new TrainingStore(raw).diagnostics(runId).map((d) => d.step)).toEqual([0])

    await runAblation(raw, saved.id, deps())
    const done = ablationDetail(raw, saved.id)
    expect(done.status, done.error ?? '').toBe('done')
    expect(done.cells.find((c) => c.row === 0)!.trainRunId).toBe(runId)
    // Step 0 was not played again: its rollouts are stored once; step 1 continued from step 0's weights.
    expect(new TrainingStore(raw).diagnostics(runId).map((d) => d.step)).toEqual([0, 1])
    expect(raw.prepare('select count(*) from episodes where run_id = ? and train_step = 0').pluck().get(runId)).toBe(2)
    expect(new TrainingStore(raw).lastCheckpoint(runId)!.gguf!.modelPath).toMatch(/step-1\.gguf$/)
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
