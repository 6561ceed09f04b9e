/**
 * A short RL run on the workstation: each step plays G rollouts of the head policy on each of Q train
 * questions through the one episode loop, scores them, assigns credit, updates the head, and stores the
 * step (rollouts, diagnostics, checkpoint) in one transaction. Question order and every rollout seed are
 * derived from the run seed and the step number, so a run resumed from its last checkpoint continues
 * exactly as an uninterrupted run would.
 */
import type SQLite from 'better-sqlite3'
import { TrainingRunConfig } from '../../../preload/contract'
import { aggregate, seededRandom } from '../../eval'
import { createEnvironment, environmentFactory, runEpisode, type Answerer, type Environment, environmentContext, type Policy, type Trajectory } from '../../harness'
import { Adam, createHead, restoreHead, type PolicyHead } from '../../policy/head'
import { candidateBuilder, HeadPolicy, headInputDim, type PriorProvider } from '../../policy/head-policy'
import { getSharedRuntime } from '../../llm/llama-runtime'
import { createPolicy, menuPrior, type MenuLlmPolicy } from '../../policy/llm-policy'
import { trainOnBatch, updateConfigOf, type TrainConfig, type TrainConfigInput } from '../../rl/trainer'
import { EvidenceResolver } from '../evidence'
import { corpusSignature, loadQuestions, type StoredQuestion } from '../questions'
import { scoreEpisode } from '../score'
import { RunStore, runStore } from '../store'
import { playRollout } from './rollouts'
import { TrainingStore } from './store'
import { runGgufTraining, type GgufTrainingDeps, type TrainedGguf } from './gguf-run'
import { resolveTrainConfig } from './resolve-config'

export interface TrainingDeps {
  answerer: Answerer
  /** How to rebuild the answerer when the run is resumed in another process (stored with the run). */
  answererSpec?: { kind: 'lexical' } | { kind: 'gguf'; modelPath: string }
  appVersion: string
  jobId: string | null
  progress(progress: number, stage: string, message?: string): void
  throwIfCancelled(): void
  /** Called after each completed step with its diagnostics (live charts). */
  onStep?(step: number, diagnostics: Record<string, unknown>): void
}

export interface HeldOutResult {
  aggregates: ReturnType<typeof aggregate>
  perQuestion: Record<string, Record<string, number | null>>
}

/** The greedy (argmax) head on the held-out split: per-question metrics and aggregates with bootstrap CIs. */
export async function evaluateHead(env: Environment, head: PolicyHead, protocol: Parameters<typeof candidateBuilder>[0], questions: StoredQuestion[], answerer: Answerer, evidence: EvidenceResolver, seed: number, prior?: PriorProvider): Promise<HeldOutResult> {
  const policy = new HeadPolicy(head, candidateBuilder(protocol), { mode: 'greedy', ...(prior ? { prior } : {}) })
  return evaluatePolicy(env, policy, questions, answerer, evidence, seed)
}

/** Any policy (greedy by its own settings) on the held-out split; `onTrajectory` sees each episode. */
export async function evaluatePolicy(env: Environment, policy: Policy, questions: StoredQuestion[], answerer: Answerer, evidence: EvidenceResolver, seed: number, onTrajectory?: (t: Trajectory) => void): Promise<HeldOutResult> {
  const perQuestion: Record<string, Record<string, number | null>> = {}
  for (const q of questions) {
    const t = await runEpisode(env, policy, q, (seed * 1_000_003 + q.rowId) >>> 0, {
      snapshots: false,
      finish: async (_e, outcome) => {
        const answer = outcome.answer ?? (await answerer.answer(q.question, evidence.evidenceTexts(outcome)))
        const m = scoreEpisode(q, outcome, answer, evidence)
        m['evidence.count'] = (outcome.evidence.sentenceIds ?? outcome.evidence.chunkIds ?? []).length
        return { answer, metrics: m }
      },
    })
    perQuestion[String(q.rowId)] = t.metrics
    onTrajectory?.(t)
  }
  return { aggregates: aggregate(Object.entries(perQuestion).map(([questionId, metrics]) => ({ questionId, variant: null, metrics })), { seed }), perQuestion }
}

/** Questions of step `step`: consecutive slices of a per-epoch shuffle of the train split, all derived from the seed. */
export function stepQuestions(train: StoredQuestion[], config: TrainConfig, step: number): StoredQuestion[] {
  const out: StoredQuestion[] = []
  const orders = new Map<number, number[]>()
  for (let j = 0; j < config.questionsPerStep; j++) {
    const i = step * config.questionsPerStep + j
    const epoch = Math.floor(i / train.length)
    let order = orders.get(epoch)
    if (!order) {
      const random = seededRandom((config.seed * 7919 + epoch * 104_729) >>> 0)
      order = train.map((_, k) => k)
      for (let k = order.length - 1; k > 0; k--) {
        const r = Math.floor(random() * (k + 1))
        ;[order[k], order[r]] = [order[r]!, order[k]!]
      }
      orders.set(epoch, order)
    }
    out.push(train[order[i % train.length]!]!)
  }
  return out
}

export const rolloutSeed = (config: TrainConfig, step: number, j: number, g: number): number => (((config.seed * 1_000_003) ^ (step * 92_821 + j * 613 + g * 7)) >>> 0)

/**
 * Runs (or resumes) a training run. `runId` null creates the run; otherwise it continues from the run's
 * last checkpoint. Cancelling stops between steps; the completed steps stay.
 */
export async function runTraining(raw: SQLite.Database, input: TrainConfigInput, deps: GgufTrainingDeps, runId: number | null = null): Promise<{ runId: number; steps: number; before: HeldOutResult | null; after: HeldOutResult | null; config: TrainConfig; model?: TrainedGguf | null }> {
  const config = resolveTrainConfig(raw, input)
  if (config.gguf) return runGgufTraining(raw, config, deps, runId)
  const runs = new RunStore(raw)
  const store = new TrainingStore(raw)
  const factory = environmentFactory(config.environment)
  const id =
    runId ??
    runs.createRun({ kind: 'train', name: config.name || `train · ${config.environment} · ${config.credit.scheme}`, config: { kind: 'training', ...config, envConfig: { ...factory.defaults, ...config.envConfig }, answerer: deps.answererSpec ?? { kind: 'lexical' }, answererName: deps.answerer.name }, seed: config.seed, appVersion: deps.appVersion, corpusSignature: corpusSignature(raw), jobId: deps.jobId })
  if (runId !== null) runs.resumeRun(id, deps.jobId)
  const checkpoint = store.lastCheckpoint(id)
  const builder = candidateBuilder(factory.protocol)
  const head = checkpoint ? restoreHead(checkpoint.head) : createHead(config.head.arch, { inputDim: headInputDim(factory.protocol), hidden: config.head.hidden, seed: config.seed, temperature: config.temperature })
  const adam = checkpoint ? Adam.restore(checkpoint.adam) : new Adam(head.size, { lr: config.learningRate })
  const ctx = environmentContext(raw)
  const env = createEnvironment(config.environment, ctx, config.envConfig)
  const evalEnv = createEnvironment(config.environment, ctx, config.envConfig)
  const evidence = new EvidenceResolver(raw)
  const train = loadQuestions(raw, config.train)
  const heldOut = loadQuestions(raw, config.heldOut)
  const rolloutCtx = { raw, evidence, answerer: deps.answerer, reward: config.reward, rewardScheme: factory.rewardScheme, credit: config.credit.scheme }
  const summary = (extra: Record<string, unknown>) => ({ ...extra, steps: store.diagnostics(id).length, bytesPerRollout: store.bytesPerRollout(id) })
  let before: HeldOutResult | null = null
  let after: HeldOutResult | null = null
  // The frozen LLM (on the GPU when there is one) scores every menu id; only beta and the head train.
  const prior = config.prior ? await loadPrior(config.prior.modelPath) : null
  try {
    const first = checkpoint ? checkpoint.step + 1 : 0
    for (let step = first; step < config.steps; step++) {
      deps.throwIfCancelled()
      deps.progress(step / config.steps, 'training', `Step ${step + 1}/${config.steps}`)
      const t0 = performance.now()
      let heldOutNow: HeldOutResult | null = null
      if (step % config.evalInterval === 0) {
        heldOutNow = await evaluateHead(evalEnv, head, factory.protocol, heldOut, deps.answerer, evidence, config.seed, prior?.provider)
        if (step === 0) before = heldOutNow
      }
      const policy = new HeadPolicy(head, builder, { mode: 'sample', temperature: config.temperature, ...(prior ? { prior: prior.provider } : {}) })
      const questions = stepQuestions(train, config, step)
      const groups = []
      for (const [j, q] of questions.entries()) {
        const group = []
        for (let g = 0; g < config.groupSize; g++) {
          deps.throwIfCancelled()
          group.push({ rollout: await playRollout(env, policy, q, rolloutSeed(config, step, j, g), rolloutCtx), questionId: q.rowId })
        }
        groups.push(group)
      }
      const result = trainOnBatch(head, adam, groups.map((g) => g.map((x) => x.rollout)), updateConfigOf(config))
      const diagnostics: Record<string, unknown> = {
        ...result.diagnostics,
        loss: result.update.loss,
        gradNorm: result.update.gradNorm,
        entropy: result.update.entropy,
        clippedFraction: result.update.clippedFraction,
        keptGroups: result.kept.length,
        creditScale: result.creditScale,
        seconds: (performance.now() - t0) / 1000,
        heldOut: heldOutNow ? Object.fromEntries(Object.entries(heldOutNow.aggregates).map(([k, v]) => [k, v.mean])) : null,
      }
      store.saveStep(
        id,
        step,
        groups.flatMap((g, gi) => g.map((x, ri) => ({ ...x, stepAdvantages: result.stepAdvantages[gi]![ri]! }))),
        { ...diagnostics, heldOutPerQuestion: heldOutNow?.perQuestion ?? null },
        { step, head: head.checkpoint(), adam: adam.state() },
      )
      deps.onStep?.(step, diagnostics)
    }
    after = await evaluateHead(evalEnv, head, factory.protocol, heldOut, deps.answerer, evidence, config.seed, prior?.provider)
    before ??= firstHeldOut(store, id, config.seed)
    runs.finishRun(id, 'done', summary({ aggregates: after.aggregates, before: before?.aggregates ?? null, heldOutAfter: after.perQuestion, heldOutBefore: before?.perQuestion ?? null }))
    deps.progress(1, 'done', `${config.steps} steps`)
    return { runId: id, steps: config.steps, before, after, config }
  } catch (err) {
    const cancelled = err instanceof Error && err.name === 'JobCancelledError'
    runs.finishRun(id, cancelled ? 'cancelled' : 'failed', summary({}), cancelled ? undefined : err instanceof Error ? err.message : String(err))
    throw err
  } finally {
    await prior?.policy.dispose()
  }
}

async function loadPrior(modelPath: string): Promise<{ policy: MenuLlmPolicy; provider: PriorProvider }> {
  const policy = (await createPolicy({ kind: 'llm-menu', modelPath }, await getSharedRuntime())) as MenuLlmPolicy
  return { policy, provider: menuPrior(policy) }
}

/**
 * The held-out result stored with step 0 (a resumed run evaluated it before it stopped), aggregated
 * with the run seed as evaluateHead does: the bootstrap CIs then equal the uninterrupted run's.
 */
export function firstHeldOut(store: TrainingStore, runId: number, seed: number): HeldOutResult | null {
  const first = store.diagnostics(runId)[0]?.diagnostics as { heldOutPerQuestion?: Record<string, Record<string, number | null>> | null } | undefined
  if (!first?.heldOutPerQuestion) return null
  const perQuestion = first.heldOutPerQuestion
  return { aggregates: aggregate(Object.entries(perQuestion).map(([questionId, metrics]) => ({ questionId, variant: null, metrics })), { seed }), perQuestion }
}


/** A stored run's config and answerer, for resuming it. */
export function storedTrainConfig(raw: SQLite.Database, runId: number): { config: TrainConfigInput; answerer: { kind: 'lexical' } | { kind: 'gguf'; modelPath: string } } {
  const row = runStore(raw).trainRunConfig(runId)
  if (!row) throw new Error(`No training run #${runId}`)
  const { kind: _kind, answerer, answererName: _name, ...config } = TrainingRunConfig.parse(JSON.parse(row))
  return { config, answerer }
}
