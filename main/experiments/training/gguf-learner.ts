/**
 * The GGUF policy's own weights as a learner. Each step: the step's rollouts sampled from the current
 * weights in the environment's protocol (menu ids under the grammar, Harness-1 tool calls, free queries),
 * group advantages and per-step credit turned into token-mean weights (rl/trainer tokenBatch), then one
 * update in the native trainer (a child process): the whole batch's gradient, one optimizer step, the KL
 * guard on a fixed probe of held-out prompts. The weights are saved as a GGUF with the optimizer state
 * beside it, and the next step's rollouts load them.
 *
 * Resume: the trainer starts from the last saved GGUF and its optimizer state, with the learning rate the
 * guard left; the probe is the base model's held-out prompts (kept in probe.json, or played again), so a
 * resumed run stores the same figures and the same final file as the uninterrupted one.
 */
import { createHash } from 'node:crypto'
import { createReadStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type SQLite from 'better-sqlite3'
import { z } from 'zod'
import type { Policy, Trajectory } from '../../harness'
import { type LlmHome } from '../../llm/llama-runtime'
import { GgufTrainer, ProbeItem, type TrainResult } from '../../llm/training'
import { jsonColumn } from '../../db/json-column'
import { TeacherForcedPolicy, type LlmDecision } from '../../policy/llm-policy'
import { scriptedPolicyFor } from '../factories'
import { imitationBatch, stepDiagnostics, tokenBatch, type TokenBatch, type TokenDecision, type TrainConfig } from '../../rl/trainer'
import { ggufPolicyOn, loadRequestFor, needsBase, trainerBackend, trainerThreadCount, trainRequestFor, untrainable } from './gguf-policy'
import type { GgufStepDiagnostics, Learner, TrainedGguf } from './learner'
import type { TrainingCheckpoint } from './store'

export type { TrainedGguf }

export interface GgufLearnerDeps {
  /** Folder for the run's GGUF files (default: trained-models/ beside the workspace database). */
  ggufDir?: string
  /** Sees each step's token batch (the weighted sequences the trainer is given) before the update. */
  onBatch?(step: number, batch: TokenBatch): void
  progress(progress: number, stage: string, message?: string): void
  throwIfCancelled(): void
  /** The LLM home (handed by the job's composition root): GGUF policies, a head's prior and the trainer's backend come from it. */
  llm?: LlmHome
}

/** Decision prompts in the KL probe (the distribution of each one's first reply token); packed, they share the system prompt. */
const PROBE_PROMPTS = 32

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

const probeOf = (trajectories: Trajectory[]): ProbeItem[] =>
  trajectories
    .flatMap(decisionsOf)
    .slice(0, PROBE_PROMPTS)
    .map((d) => ({ tokens: d.prompt, positions: [d.prompt.length - 1] }))

export interface GgufLearnerSetup {
  raw: SQLite.Database
  config: TrainConfig
  runId: number
  checkpoint: TrainingCheckpoint | null
  deps: GgufLearnerDeps
  /** Plays the held-out split with a policy (to rebuild the probe of a resumed run whose probe.json is gone). */
  heldOutPass(policy: Policy, onTrajectory: (t: Trajectory) => void): Promise<void>
}

export async function createGgufLearner({ raw, config, runId, checkpoint, deps, heldOutPass }: GgufLearnerSetup): Promise<Learner> {
  const gguf = config.gguf
  if (!gguf) throw new Error('createGgufLearner needs config.gguf')
  let current = checkpoint?.gguf?.modelPath ?? gguf.modelPath
  if (!existsSync(current)) throw new Error(`The run's last saved weights (${current}) are gone: cannot resume run #${runId}`)
  const optimizerState = checkpoint?.gguf?.optimizerState ?? null
  if (optimizerState && !existsSync(optimizerState)) throw new Error(`The run's optimizer state (${optimizerState}) is gone: cannot resume run #${runId} exactly`)
  const runDir = join(deps.ggufDir ?? join(dirname(raw.name), 'trained-models'), `run-${runId}`)
  const probeFile = join(runDir, 'probe.json')
  const policyOn = (path: string, temperature: number) => ggufPolicyOn(gguf, config.environment, config.envConfig, path, { temperature, seed: config.seed }, deps.llm, true)

  deps.progress(0, 'training', 'Starting the GGUF trainer')
  const trainer = await GgufTrainer.start({ backend: await trainerBackend(gguf, deps.llm) })
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

  let lr = checkpoint?.gguf?.lr ?? gguf.learningRate
  let lastKl: number | null = checkpoint ? null : 0
  let probe: ProbeItem[] = []
  let collecting: Trajectory[] | null = null
  let lastSaved: { path: string; sha256: string; step: number; optimizerState: string } | null = checkpoint?.gguf ? { path: checkpoint.gguf.modelPath, sha256: checkpoint.gguf.sha256, step: checkpoint.step, optimizerState: checkpoint.gguf.optimizerState ?? '' } : null
  let baseSha256 = ''
  try {
    const common = { model: current, optimizer: gguf.optimizer, contextSize: gguf.contextSize, lastBlocks: gguf.lastBlocks ?? -1 }
    const estimate = await cancellable(trainer.estimate({ ...common, withBase: needsBase(gguf) }))
    if (!estimate.trainable) throw untrainable(gguf.modelPath, estimate.reason)
    deps.progress(0, 'training', `Loading ${estimate.nTrainable.toLocaleString('en')} trainable parameters: about ${Math.ceil(estimate.estimatedBytes / 2 ** 20)} MiB for training`)
    await cancellable(trainer.load(loadRequestFor(gguf, current, { baseModel: needsBase(gguf) ? gguf.modelPath : null, optimizerState, threads: trainerThreadCount() })))
    baseSha256 = await sha256File(gguf.modelPath)
    if (!gguf.klTarget) {
      // no KL guard: no probe to collect or measure
    } else if (checkpoint) {
      if (existsSync(probeFile)) probe = jsonColumn(probeFile, z.array(ProbeItem)).read(readFileSync(probeFile, 'utf8'))
      else {
        const base = await policyOn(gguf.modelPath, 0)
        const played: Trajectory[] = []
        try {
          await heldOutPass(base, (t) => played.push(t))
        } finally {
          await base.dispose()
        }
        probe = probeOf(played)
      }
    } else collecting = []
  } catch (err) {
    trainer.kill()
    throw err
  }

  const model = (): TrainedGguf | null => (lastSaved ? { path: lastSaved.path, sha256: lastSaved.sha256, baseModel: gguf.modelPath, baseSha256, runId, step: lastSaved.step } : null)

  return {
    rolloutPolicy: async () => {
      const policy = await policyOn(current, config.temperature)
      // A warm start: the teacher plays, the model's decisions record its choices as replies to learn.
      if (gguf.teacher) {
        const forced = new TeacherForcedPolicy(scriptedPolicyFor(gguf.teacher, config.environment, raw, config.envConfig), policy)
        return { policy: forced, dispose: () => forced.dispose() }
      }
      return { policy, dispose: () => policy.dispose() }
    },
    evalPolicy: async () => {
      const policy = await policyOn(current, 0)
      return {
        policy,
        dispose: async () => {
          await policy.dispose()
          // The first held-out pass plays the base weights: its prompts are the run's fixed KL probe.
          if (collecting) {
            probe = probeOf(collecting)
            collecting = null
            mkdirSync(runDir, { recursive: true })
            writeFileSync(probeFile, JSON.stringify(probe))
          }
        },
      }
    },
    observeHeldOut: (t) => void collecting?.push(t),
    update: async (step, groups) => {
      const rollouts = groups.map((g) => g.map((x) => ({ summary: x.rollout.summary, credit: x.rollout.credit, decisions: decisionsOf(x.rollout.trajectory) })))
      const batch = gguf.teacher ? imitationBatch(rollouts, (gi, ri) => groups[gi]![ri]!.rollout.trajectory.steps.length) : tokenBatch(rollouts, config, gguf.klCoef)
      deps.onBatch?.(step, batch)
      deps.throwIfCancelled()
      const lrUsed = lr
      const updates: TrainResult[] = []
      // A warm start moves away from the base on purpose: no KL guard (its KL is still measured and charted).
      const request = gguf.teacher ? { ...gguf, klTarget: 0 } : gguf
      for (let e = 0; e < gguf.epochs; e++) {
        const r = await cancellable(trainer.train(trainRequestFor(request, batch.items, lr, gguf.teacher ? [] : probe)))
        updates.push(r)
        // The guard kept only part of the step: the rest of the run steps that much smaller.
        if (r.optimizerSteps > 0 && r.stepScale < 1) lr *= r.stepScale
        else if (r.sequences > 0 && r.optimizerSteps === 0) lr *= 0.5 ** (gguf.maxBacktracks + 1)
      }
      // An update with nothing to train leaves the weights, so the KL is the last one measured (0 at the base).
      const measured = updates.at(-1)?.probeKl ?? null
      const kl = !probe.length ? null : measured !== null ? measured : lastKl !== null && updates.every((u) => u.sequences === 0) ? lastKl : (await cancellable(trainer.kl(probe))).mean
      lastKl = kl
      const first = updates[0]!
      const last = updates.at(-1)!
      mkdirSync(runDir, { recursive: true })
      const path = join(runDir, `step-${step}.gguf`)
      const state = `${path}.optimizer`
      await cancellable(trainer.save(path, state))
      const sha256 = await sha256File(path)
      const sum = (f: (u: TrainResult) => number) => updates.reduce((s, u) => s + f(u), 0)
      const seconds = sum((u) => u.seconds)
      const backtracks = sum((u) => u.backtracks)
      const undone = updates.some((u) => u.sequences > 0 && u.optimizerSteps === 0)
      const guard = backtracks > 0 ? `KL(policy || base) above the target ${gguf.klTarget} nats: ${undone ? 'the step was undone' : `the step was halved ${backtracks} time${backtracks === 1 ? '' : 's'}`}; learning rate now ${lr.toPrecision(3)}` : null
      return {
        diagnostics: {
          ...stepDiagnostics(groups.map((g) => g.map((x) => x.rollout.summary)), batch.outcomeAdvantages.flat()),
          loss: first.objective,
          pgLoss: first.pgObjective,
          klLoss: first.klObjective,
          // measured only when something trained: a step with no update has no gradient to chart
          gradNorm: first.sequences > 0 ? first.gradNorm : null,
          entropy: first.sequences > 0 ? first.entropy : null,
          clippedFraction: updates.filter((u) => u.clipped).length / updates.length,
          stepScale: last.stepScale,
          backtracks,
          learningRate: lrUsed,
          keptGroups: batch.kept.length,
          creditScale: batch.creditScale,
          decisionsTrained: batch.decisions,
          tokensTrained: first.weightedTokens,
          optimizerSteps: sum((u) => u.optimizerSteps),
          secondsPerUpdate: seconds,
          tokensPerSecond: seconds > 0 ? sum((u) => u.tokensProcessed) / seconds : 0,
          trainedTokensPerSecond: seconds > 0 ? sum((u) => u.weightedTokens) / seconds : 0,
          // positions of the training graph that carry no token (packing shares prefixes and fills datapoints)
          paddingShare: first.tokensProcessed > 0 ? 1 - first.packedTokens / first.tokensProcessed : 0,
          sharedPrefixShare: first.sequenceTokens > 0 ? 1 - first.packedTokens / first.sequenceTokens : 0,
          datapoints: first.datapoints,
          klToBase: kl,
          klToBaseMax: last.probeKlMax,
          klWarning: guard,
          trainerPeakRssBytes: last.peakRssBytes,
        } satisfies GgufStepDiagnostics,
        stepAdvantages: batch.stepAdvantages,
        checkpoint: { step, head: null, adam: null, gguf: { modelPath: path, sha256, optimizerState: state, lr } },
      }
    },
    committed: (step, checkpoint) => {
      const saved = checkpoint.gguf!
      // The previous step's files are no checkpoint any more (never the base model).
      if (lastSaved && lastSaved.path !== gguf.modelPath && lastSaved.path !== saved.modelPath) {
        rmSync(lastSaved.path, { force: true })
        if (lastSaved.optimizerState) rmSync(lastSaved.optimizerState, { force: true })
      }
      lastSaved = { path: saved.modelPath, sha256: saved.sha256, step, optimizerState: saved.optimizerState ?? '' }
      current = saved.modelPath
    },
    finish: async () => {
      const m = model()
      if (m) writeFileSync(`${m.path}.provenance.json`, JSON.stringify(m, null, 2))
      return { ggufModel: m }
    },
    model,
    dispose: async () => {
      await trainer.close().catch(() => trainer.kill())
    },
  }
}
