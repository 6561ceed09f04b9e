/**
 * Runs an ablation: one cell per row and seed, every cell on the same questions in the same order with
 * the same seed, through the existing machinery only: evaluation rows are runEvaluation, training rows
 * are runTraining (resumed from their last step after a cancel or crash) followed by runEvaluation of the
 * trained head, or of the trained GGUF weights when the base's training names a GGUF model. Cells interleave up to the parallel limit within the job (they overlap where they wait:
 * GGUF model calls); progress is stored per cell. Finished cells are skipped when the job runs again.
 */
import type { LlmHome } from '../../llm/llama-runtime'
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { availableParallelism } from 'node:os'
import type SQLite from 'better-sqlite3'
import { PolicySpec, type AblationConfig, type AblationPolicy, type ResolvedRow, type TrainConfigRequestInput } from '../../../preload/contract'
import { environmentFactory, type Answerer, type Policy } from '../../harness'
import { createHead, restoreHead } from '../../policy/head'
import { candidateBuilder, HeadPolicy, headInputDim } from '../../policy/head-policy'
import { runEvaluation } from '../runs/evaluate'
import { policyFor } from '../factories'
import { corpusSignature } from '../questions'
import { runStore } from '../runs/store'
import { checkGgufTrainable, ggufPolicyOn, runTraining, TrainingStore, type TrainedGguf } from '../training'
import { computeResults } from './results'
import { isTrainedGguf, loraPolicySpec, trainingConfig } from './resolve'
import { ablationColumns, ablationStore, type AblationCellRecord } from './store'

export interface AblationDeps {
  answerer: Answerer
  answererSpec: AblationConfig['base']['answerer']
  appVersion: string
  jobId: string | null
  progress(progress: number, stage: string, message?: string): void
  throwIfCancelled(): void
  /** The LLM home (handed by the job's composition root) its GGUF policies, priors and trainer come from. */
  llm?: LlmHome
  /** Folder for the GGUF files its training cells save (default: trained-models/ beside the workspace database). */
  ggufDir?: string
  /**
   * Sees the final weights of each GGUF training run once, when the run finishes (the job registers them
   * as a model); a cell resumed after its training finished does not train, so it is not called again.
   */
  onTrainedModel?(model: TrainedGguf): Promise<void>
}

export interface AblationRunSummary {
  ablationId: number
  cells: number
  seconds: number
}

const HEAD_DEFAULTS = { arch: 'mlp', hidden: 32, temperature: 1 } as const

/** The stored config and resolved rows of an ablation (validated: written by this or an older version). */
export function storedAblation(raw: SQLite.Database, id: number): { name: string; status: string; config: AblationConfig; resolved: ResolvedRow[] } {
  const record = ablationStore(raw).get(id)
  if (!record) throw new Error(`No ablation #${id}`)
  return { name: record.name, status: record.status, config: ablationColumns.config.read(record.config_json), resolved: ablationColumns.resolved.read(record.resolved_json) }
}

export async function runAblation(raw: SQLite.Database, id: number, deps: AblationDeps): Promise<AblationRunSummary> {
  const t0 = performance.now()
  const store = ablationStore(raw)
  const { name, status, config, resolved } = storedAblation(raw, id)
  if (status === 'done') throw new Error(`Ablation #${id} is finished; re-run it to run it again (the finished one stays as it is)`)
  const cells = store.cells(id)
  const paths = [...new Set(resolved.filter((r) => r.unavailable === null).flatMap((r) => modelPaths(r.policy)).concat(config.base.answerer.kind === 'gguf' ? [config.base.answerer.modelPath] : []))]
  // Each model file by content hash, so the record says exactly which weights ran even if a file is replaced later.
  const models = await Promise.all(paths.map(async (p) => `${p} sha256:${await fileSha256(p)}`))
  store.start(id, deps.jobId, { appVersion: deps.appVersion, corpusSignature: corpusSignature(raw), models })
  const progress = new Map(cells.map((c) => [`${c.row}:${c.seed}`, { done: c.status === 'done' ? c.total : 0, total: c.total }]))
  const report = (message: string) => {
    let done = 0
    let total = 0
    for (const p of progress.values()) {
      done += p.done
      total += p.total
    }
    deps.progress(total === 0 ? 1 : Math.min(1, done / total), 'cells', message)
  }
  const todo = cells.filter((c) => c.status !== 'done' && resolved[c.row]?.unavailable === null)
  const limit = Math.max(1, Math.min(todo.length, config.parallel || Math.max(1, availableParallelism() - 1)))
  let next = 0
  let failure: unknown = null
  const worker = async () => {
    while (next < todo.length && failure === null) {
      const cell = todo[next++]!
      try {
        await runCell(raw, id, name, config, resolved[cell.row]!, cell, deps, (done, total, message) => {
          progress.set(`${cell.row}:${cell.seed}`, { done, total })
          store.setCellProgress(id, cell.row, cell.seed, done, total)
          report(`${resolved[cell.row]!.label} · seed ${cell.seed}: ${message}`)
        })
      } catch (err) {
        if (err instanceof Error && err.name === 'JobCancelledError') failure ??= err
        // Any other failure stays with its cell; the other cells go on and the row says why.
      }
    }
  }
  try {
    // Refused before any cell runs, with a training run's own message: no native trainer here, or a model it cannot train.
    const gguf = config.base.training.gguf
    if (gguf && todo.some((c) => isTrainedGguf(resolved[c.row]!.policy))) await checkGgufTrainable(gguf, deps.llm)
    await Promise.all(Array.from({ length: limit }, worker))
    if (failure) throw failure
    deps.throwIfCancelled()
    const results = computeResults(raw, id, config, resolved)
    store.finish(id, 'done', results, null)
    deps.progress(1, 'done', `${cells.length} cells`)
    return { ablationId: id, cells: cells.length, seconds: (performance.now() - t0) / 1000 }
  } catch (err) {
    const cancelled = err instanceof Error && err.name === 'JobCancelledError'
    store.finish(id, cancelled ? 'cancelled' : 'failed', null, cancelled ? null : err instanceof Error ? err.message : String(err))
    throw err
  }
}

function fileSha256(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256')
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')))
  })
}

function modelPaths(resolved: Record<string, unknown>): string[] {
  // A GGUF training row starts from the model file; its trained weights are recorded, by hash, with its evaluation run.
  if (isTrainedGguf(resolved)) return [resolved.modelPath]
  const policy = resolved as AblationPolicy
  if (policy.kind === 'llm') return [policy.modelPath]
  if (policy.kind === 'llm-lora') return [policy.modelPath, policy.loraPath]
  return []
}

async function runCell(
  raw: SQLite.Database,
  id: number,
  name: string,
  config: AblationConfig,
  row: ResolvedRow,
  cell: AblationCellRecord,
  deps: AblationDeps,
  onProgress: (done: number, total: number, message: string) => void,
): Promise<void> {
  const store = ablationStore(raw)
  const base = config.base
  store.setCellStatus(id, row.index, cell.seed, 'running')
  const questions = base.limit
  try {
    let policy: { value: Policy; dispose(): Promise<void> }
    // What the evaluation run records as its policy: the row's, or the trained GGUF weights it played.
    let evaluated: Record<string, unknown> = row.policy
    let trainSteps = 0
    if (row.kind === 'train') {
      trainSteps = base.training.steps
      const trainName = `${name} (ablation #${id}) · ${row.label} · seed ${cell.seed}`
      const trainConfig = trainingConfig(base, row, cell.seed, trainName)
      const resume = cell.train_run_id !== null && runStore(raw).trainRunStatus(cell.train_run_id) !== 'done' ? cell.train_run_id : null
      let trainRunId = cell.train_run_id
      if (trainRunId === null || resume !== null) {
        const trained = await runTraining(raw, trainConfig as TrainConfigRequestInput, {
          answerer: deps.answerer,
          answererSpec: deps.answererSpec,
          appVersion: deps.appVersion,
          jobId: deps.jobId,
          throwIfCancelled: deps.throwIfCancelled,
          llm: deps.llm,
          ...(deps.ggufDir !== undefined ? { ggufDir: deps.ggufDir } : {}),
          progress: (p, _stage, message) => {
            // The run id exists from the first step on: record it so a cancelled cell resumes its training.
            if (trainRunId === null) {
              trainRunId = store.trainRunNamed(trainName) ?? null
              if (trainRunId !== null) store.setCellTrainRun(id, row.index, cell.seed, trainRunId)
            }
            onProgress(Math.round(p * trainSteps), trainSteps + questions, `training ${message ?? ''}`)
          },
        }, resume)
        trainRunId = trained.runId
        store.setCellTrainRun(id, row.index, cell.seed, trained.runId)
        if (trained.model) await deps.onTrainedModel?.(trained.model)
      }
      const checkpoint = new TrainingStore(raw).lastCheckpoint(trainRunId)
      if (!checkpoint) throw new Error(`Training run #${trainRunId} has no checkpoint`)
      const gguf = base.training.gguf
      if (isTrainedGguf(row.policy) && gguf) {
        // The trained weights (the run's last saved GGUF), greedy, as the run's own held-out evaluation plays them.
        if (!checkpoint.gguf) throw new Error(`Training run #${trainRunId} saved no GGUF weights`)
        const value = await ggufPolicyOn(gguf, row.environment, row.envConfig, checkpoint.gguf.modelPath, { temperature: 0, seed: cell.seed }, deps.llm)
        policy = { value, dispose: () => value.dispose() }
        evaluated = { kind: 'llm', modelPath: checkpoint.gguf.modelPath, sha256: checkpoint.gguf.sha256, trainedFrom: gguf.modelPath, trainingRun: trainRunId, step: checkpoint.step }
      } else {
        policy = headPolicy(row, restoreHead(checkpoint.head))
      }
    } else {
      const p = row.policy as AblationPolicy
      if ((p.kind === 'head' && 'trainingRun' in p) || p.kind === 'head-file') {
        // A finished run's head (or a weights file): evaluated like any other policy.
        policy = await policyFor(p, row.environment, raw, {}, deps.llm)
      } else if (p.kind === 'head') {
        const { protocol } = environmentFactory(row.environment)
        policy = headPolicy(row, createHead(HEAD_DEFAULTS.arch, { inputDim: headInputDim(protocol), hidden: HEAD_DEFAULTS.hidden, seed: cell.seed, temperature: HEAD_DEFAULTS.temperature }))
      } else if (p.kind === 'llm-lora') {
        // Parsed here so a build whose policy spec has no LoRA option fails this cell with a plain message.
        const spec = PolicySpec.safeParse(loraPolicySpec(p.modelPath, p.loraPath))
        if (!spec.success) throw new Error('LoRA adapters are not available in this build: the GGUF policy has no lora option')
        policy = await policyFor(spec.data, row.environment, undefined, row.envConfig, deps.llm)
      } else {
        policy = await policyFor(p, row.environment, raw, row.envConfig, deps.llm)
      }
    }
    try {
      const summary = await runEvaluation(
        raw,
        {
          name: `${name} (ablation #${id}) · ${row.label} · seed ${cell.seed}`,
          environment: row.environment,
          envConfig: row.envConfig,
          policy: evaluated as AblationPolicy,
          ablation: { id, row: row.index },
          answerer: base.answerer,
          questionSetId: base.questionSetId,
          ...(base.split !== undefined ? { split: base.split } : {}),
          offset: base.offset,
          limit: base.limit,
          seed: cell.seed,
          previews: base.previews,
          rewardWeights: row.rewardWeights,
        },
        {
          policy: policy.value,
          answerer: deps.answerer,
          appVersion: deps.appVersion,
          jobId: deps.jobId,
          throwIfCancelled: deps.throwIfCancelled,
          progress: (p, _stage, message) => onProgress(trainSteps + Math.round(p * questions), trainSteps + questions, message ?? ''),
        },
      )
      store.setCellRun(id, row.index, cell.seed, summary.runId)
      onProgress(trainSteps + questions, trainSteps + questions, `${summary.episodes} episodes`)
    } finally {
      await policy.dispose()
    }
    store.setCellStatus(id, row.index, cell.seed, 'done')
  } catch (err) {
    const cancelled = err instanceof Error && err.name === 'JobCancelledError'
    store.setCellStatus(id, row.index, cell.seed, cancelled ? 'pending' : 'failed', cancelled ? null : err instanceof Error ? err.message : String(err))
    throw err
  }
}

function headPolicy(row: ResolvedRow, head: ReturnType<typeof createHead>): { value: Policy; dispose(): Promise<void> } {
  const { protocol } = environmentFactory(row.environment)
  return { value: new HeadPolicy(head, candidateBuilder(protocol), { mode: 'greedy' }), dispose: async () => undefined }
}
