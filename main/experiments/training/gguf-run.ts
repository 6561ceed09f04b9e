/**
 * A training run on the GGUF policy's own weights (config.gguf). Each step: G sampled rollouts per
 * question of the model acting in the environment's protocol (menu ids under the grammar for
 * graph-menu, JSON tool calls for Harness-1, search queries for free-query: the policy kind evaluation
 * runs use), rewards and per-step credit from the registries, group advantages from the estimator,
 * then one advantage-weighted update of each decision's sampled tokens given its prompt in the native
 * trainer (a child process), KL(policy || base) on the
 * held-out prompts, and the weights saved as a GGUF that the next step's rollouts load. A step's
 * rollouts, diagnostics and checkpoint (the saved file) are stored in one transaction, as for the head.
 *
 * Resume: the run continues from the last saved GGUF. The trainer's optimiser state lives only in its
 * process, so AdamW's moments restart from zero on resume (SGD, the default, has none).
 */
import { createHash } from 'node:crypto'
import { createReadStream, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type SQLite from 'better-sqlite3'
import { createEnvironment, environmentContext, environmentFactory, type Protocol, type Trajectory } from '../../harness'
import { defaultThreadCount, getSharedRuntime } from '../../llm/llama-runtime'
import { GgufTrainer, type TrainerBackend } from '../../llm/training'
import { createPolicy, LLM_KIND_FOR_PROTOCOL, type LlmDecision, type LlmPolicy, type LlmPolicyKind } from '../../policy/llm-policy'
import type { GgufTrainConfig } from '../../../preload/contract'
import { stepDiagnostics, tokenBatch, type TokenBatch, type TokenDecision, type TrainConfig } from '../../rl/trainer'
import { EvidenceResolver } from '../evidence'
import { corpusSignature, loadQuestions, type StoredQuestion } from '../questions'
import { RunStore } from '../store'
import { playRollout, type PlayedRollout } from './rollouts'
import { TrainingStore } from './store'
import type { HeldOutResult, TrainingDeps } from './run-training'
import { evaluatePolicy, firstHeldOut, rolloutSeed, stepQuestions } from './run-training'

export interface TrainedGguf {
  path: string
  sha256: string
  baseModel: string
  baseSha256: string
  runId: number
  step: number
}

export interface GgufTrainingDeps extends TrainingDeps {
  /** Folder for the run's GGUF files (default: trained-models/ beside the workspace database). */
  ggufDir?: string
  /** Sees each step's token batch (the weighted sequences the trainer is given) before the update. */
  onBatch?(step: number, batch: TokenBatch): void
}

/**
 * The LLM policy kind that plays `environment` and whose decisions train: the one evaluation runs use
 * for its protocol. Every decision of these kinds records its prompt and sampled tokens.
 */
export function ggufPolicyKind(environment: string, protocol: Protocol): LlmPolicyKind {
  const kind = (LLM_KIND_FOR_PROTOCOL as Partial<Record<string, LlmPolicyKind>>)[protocol]
  if (!kind) throw new Error(`Training the GGUF weights needs an LLM policy for the environment's protocol; ${environment} speaks "${protocol}", which no LLM policy kind plays`)
  return kind
}

/** The trainer's backend for a config: the runtime's GPU backend when layers are offloaded, else the CPU. */
async function trainerBackend(gguf: GgufTrainConfig): Promise<TrainerBackend> {
  const runtime = await getSharedRuntime()
  return gguf.gpuLayers !== 0 && (runtime.backend === 'cuda' || runtime.backend === 'vulkan') ? runtime.backend : 'cpu'
}

const untrainable = (modelPath: string, reason: string) => new Error(`${modelPath} cannot be trained: ${reason}`)

/**
 * Refuses a GGUF training config before any run starts, with the messages a run gives: the native
 * trainer cannot be built or started here, or the model cannot be trained (a quantised or F16 tensor).
 */
export async function checkGgufTrainable(gguf: GgufTrainConfig): Promise<void> {
  if (!existsSync(gguf.modelPath)) throw new Error(`No GGUF model file at ${gguf.modelPath}`)
  const trainer = await GgufTrainer.start({ backend: await trainerBackend(gguf) })
  try {
    const estimate = await trainer.estimate({ model: gguf.modelPath, optimizer: gguf.optimizer, contextSize: gguf.contextSize, gpuLayers: gguf.gpuLayers, ...(gguf.lastBlocks !== null ? { lastBlocks: gguf.lastBlocks } : {}) })
    if (!estimate.trainable) throw untrainable(gguf.modelPath, estimate.reason)
  } finally {
    await trainer.close().catch(() => trainer.kill())
  }
}

/** The policy a run's held-out evaluation plays: the weights at `path`, in the environment's protocol, with the run's context and token limits. */
export async function ggufPolicyOn(gguf: GgufTrainConfig, environment: string, path: string, sampling: { temperature: number; seed: number }, recordTokens = false): Promise<LlmPolicy> {
  const kind = ggufPolicyKind(environment, environmentFactory(environment).protocol)
  return createPolicy({ kind, modelPath: path, contextSize: gguf.contextSize, sequences: 1, recordTokens, maxTokens: gguf.maxTokens, sampling }, await getSharedRuntime())
}

async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256')
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer)
  return h.digest('hex')
}

const decisionsOf = (t: Trajectory): TokenDecision[] =>
  t.steps.flatMap((s, i) => {
    const ids = (s.decision as Partial<LlmDecision>).tokenIds
    return ids ? [{ t: i, prompt: ids.prompt, chosen: ids.chosen }] : []
  })

export async function runGgufTraining(raw: SQLite.Database, config: TrainConfig, deps: GgufTrainingDeps, runId: number | null): Promise<{ runId: number; steps: number; before: HeldOutResult | null; after: HeldOutResult | null; config: TrainConfig; model: TrainedGguf | null }> {
  const gguf = config.gguf
  if (!gguf) throw new Error('runGgufTraining needs config.gguf')
  const factory = environmentFactory(config.environment)
  ggufPolicyKind(config.environment, factory.protocol)
  if (!existsSync(gguf.modelPath)) throw new Error(`No GGUF model file at ${gguf.modelPath}`)
  const runs = new RunStore(raw)
  const store = new TrainingStore(raw)
  const id =
    runId ??
    runs.createRun({ kind: 'train', name: config.name || `train · gguf · ${config.environment} · ${config.credit.scheme}`, config: { kind: 'training', ...config, envConfig: { ...factory.defaults, ...config.envConfig }, answerer: deps.answererSpec ?? { kind: 'lexical' }, answererName: deps.answerer.name }, seed: config.seed, appVersion: deps.appVersion, corpusSignature: corpusSignature(raw), jobId: deps.jobId })
  if (runId !== null) runs.resumeRun(id, deps.jobId)
  const checkpoint = store.lastCheckpoint(id)
  let current = checkpoint?.gguf?.modelPath ?? gguf.modelPath
  if (!existsSync(current)) throw new Error(`The run's last saved weights (${current}) are gone: cannot resume run #${id}`)
  const runDir = join(deps.ggufDir ?? join(dirname(raw.name), 'trained-models'), `run-${id}`)
  mkdirSync(runDir, { recursive: true })

  const ctx = environmentContext(raw)
  const env = createEnvironment(config.environment, ctx, config.envConfig)
  const evalEnv = createEnvironment(config.environment, ctx, config.envConfig)
  const evidence = new EvidenceResolver(raw)
  const train = loadQuestions(raw, config.train)
  const heldOut: StoredQuestion[] = loadQuestions(raw, config.heldOut)
  const rolloutCtx = { raw, evidence, answerer: deps.answerer, reward: config.reward, rewardScheme: factory.rewardScheme, credit: config.credit.scheme }
  const backend = await trainerBackend(gguf)
  const policyOn = (path: string, temperature: number): Promise<LlmPolicy> => ggufPolicyOn(gguf, config.environment, path, { temperature, seed: config.seed }, true)

  deps.progress(0, 'training', 'Starting the GGUF trainer')
  const trainer = await GgufTrainer.start({ backend })
  /**
   * The trainer's calls take seconds (longer than the job manager's grace before it stops the thread, which
   * would leave the trainer behind): while one runs, the cancel flag is looked at every 100 ms, and a
   * cancel kills the trainer and ends the run as cancelled at once.
   */
  const cancellable = async <T>(work: Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined
    const cancelled = new Promise<never>((_, reject) => {
      timer = setInterval(() => {
        try {
          deps.throwIfCancelled()
        } catch (err) {
          trainer.kill()
          reject(err)
        }
      }, 100)
    })
    try {
      return await Promise.race([work, cancelled])
    } finally {
      clearInterval(timer)
    }
  }
  const summary = (extra: Record<string, unknown>) => ({ ...extra, steps: store.diagnostics(id).length, bytesPerRollout: store.bytesPerRollout(id) })
  let before: HeldOutResult | null = null
  let after: HeldOutResult | null = null
  const klPrompts: Array<{ tokens: number[]; positions: number[] }> = []
  const evaluate = async (path: string): Promise<HeldOutResult> => {
    const policy = await policyOn(path, 0)
    try {
      return await evaluatePolicy(evalEnv, policy, heldOut, deps.answerer, evidence, config.seed, (t) => {
        deps.throwIfCancelled()
        if (klPrompts.length >= 64) return
        for (const d of decisionsOf(t)) klPrompts.push({ tokens: d.prompt, positions: [d.prompt.length - 1] })
      })
    } finally {
      await policy.dispose()
    }
  }
  try {
    const loadOptions = { model: current, baseModel: gguf.modelPath, optimizer: gguf.optimizer, lr: gguf.learningRate, contextSize: gguf.contextSize, threads: defaultThreadCount(), gpuLayers: gguf.gpuLayers, ...(gguf.lastBlocks !== null ? { lastBlocks: gguf.lastBlocks } : {}) }
    const estimate = await cancellable(trainer.estimate({ ...loadOptions, withBase: true }))
    if (!estimate.trainable) throw untrainable(gguf.modelPath, estimate.reason)
    deps.progress(0, 'training', `Loading ${estimate.nTrainable.toLocaleString('en')} trainable parameters: about ${Math.ceil(estimate.estimatedBytes / 2 ** 20)} MiB for training`)
    const info = await cancellable(trainer.load(loadOptions))
    const baseSha256 = await sha256File(gguf.modelPath)
    const first = checkpoint ? checkpoint.step + 1 : 0
    let lastSaved: { path: string; sha256: string; step: number } | null = checkpoint?.gguf ? { path: checkpoint.gguf.modelPath, sha256: checkpoint.gguf.sha256, step: checkpoint.step } : null
    for (let step = first; step < config.steps; step++) {
      deps.throwIfCancelled()
      deps.progress(step / config.steps, 'training', `Step ${step + 1}/${config.steps}`)
      const t0 = performance.now()
      let heldOutNow: HeldOutResult | null = null
      if (step % config.evalInterval === 0 || klPrompts.length === 0) {
        heldOutNow = await evaluate(current)
        if (step === 0) before = heldOutNow
      }
      const tRollouts = performance.now()
      const policy = await policyOn(current, config.temperature)
      const groups: Array<Array<{ rollout: PlayedRollout; questionId: number; decisions: TokenDecision[] }>> = []
      try {
        for (const [j, q] of stepQuestions(train, config, step).entries()) {
          const group = []
          for (let g = 0; g < config.groupSize; g++) {
            deps.throwIfCancelled()
            const rollout = await playRollout(env, policy, q, rolloutSeed(config, step, j, g), rolloutCtx)
            group.push({ rollout, questionId: q.rowId, decisions: decisionsOf(rollout.trajectory) })
          }
          groups.push(group)
        }
      } finally {
        await policy.dispose()
      }
      const rolloutSeconds = (performance.now() - tRollouts) / 1000
      const batch = tokenBatch(groups.map((g) => g.map((x) => ({ summary: x.rollout.summary, credit: x.rollout.credit, decisions: x.decisions }))), config)
      deps.onBatch?.(step, batch)
      deps.throwIfCancelled()
      const update = await cancellable(trainer.train(batch.items, { epochs: gguf.epochs }))
      const kl = klPrompts.length ? await cancellable(trainer.kl(klPrompts)) : null
      const path = join(runDir, `step-${step}.gguf`)
      await cancellable(trainer.save(path))
      const sha256 = await sha256File(path)
      const rollouts = groups.flat().length
      const diagnostics: Record<string, unknown> = {
        ...stepDiagnostics(groups.map((g) => g.map((x) => x.rollout.summary)), batch.outcomeAdvantages.flat()),
        loss: update.objective,
        keptGroups: batch.kept.length,
        creditScale: batch.creditScale,
        decisionsTrained: batch.decisions,
        tokensTrained: update.weightedTokens,
        optimizerSteps: update.optimizerSteps,
        secondsPerUpdate: update.seconds,
        tokensPerSecond: update.seconds > 0 ? update.tokensProcessed / update.seconds : 0,
        rolloutsPerSecond: rolloutSeconds > 0 ? rollouts / rolloutSeconds : 0,
        klToBase: kl?.mean ?? null,
        klToBaseMax: kl?.max ?? null,
        klWarning: kl && kl.mean > gguf.klWarn ? `KL(policy || base) ${kl.mean.toFixed(3)} nats exceeds ${gguf.klWarn}: lower the learning rate` : null,
        trainerPeakRssBytes: update.peakRssBytes,
        trainerEstimatedBytes: info.estimatedBytes,
        seconds: (performance.now() - t0) / 1000,
        heldOut: heldOutNow ? Object.fromEntries(Object.entries(heldOutNow.aggregates).map(([k, v]) => [k, v.mean])) : null,
      }
      store.saveStep(
        id,
        step,
        groups.flatMap((g, gi) => g.map((x, ri) => ({ rollout: x.rollout, questionId: x.questionId, stepAdvantages: batch.stepAdvantages[gi]![ri]! }))),
        { ...diagnostics, heldOutPerQuestion: heldOutNow?.perQuestion ?? null },
        { step, head: null, adam: null, gguf: { modelPath: path, sha256 } },
      )
      // The previous step's file is no checkpoint any more (never the base model).
      if (lastSaved && lastSaved.path !== gguf.modelPath && lastSaved.path !== path) rmSync(lastSaved.path, { force: true })
      lastSaved = { path, sha256, step }
      current = path
      deps.onStep?.(step, diagnostics)
    }
    after = await evaluate(current)
    before ??= firstHeldOut(store, id, config.seed)
    const model: TrainedGguf | null = lastSaved ? { path: lastSaved.path, sha256: lastSaved.sha256, baseModel: gguf.modelPath, baseSha256, runId: id, step: lastSaved.step } : null
    if (model) writeFileSync(`${model.path}.provenance.json`, JSON.stringify(model, null, 2))
    runs.finishRun(id, 'done', summary({ aggregates: after.aggregates, before: before?.aggregates ?? null, heldOutAfter: after.perQuestion, heldOutBefore: before?.perQuestion ?? null, ggufModel: model }))
    deps.progress(1, 'done', `${config.steps} steps`)
    return { runId: id, steps: config.steps, before, after, config, model }
  } catch (err) {
    const cancelled = err instanceof Error && err.name === 'JobCancelledError'
    runs.finishRun(id, cancelled ? 'cancelled' : 'failed', summary({}), cancelled ? undefined : err instanceof Error ? err.message : String(err))
    throw err
  } finally {
    await trainer.close().catch(() => trainer.kill())
  }
}
