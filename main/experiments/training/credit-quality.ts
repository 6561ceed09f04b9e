/**
 * Credit quality of a training run (issue 30): its stored rollouts of some steps are replayed (with
 * observations and previews), every registered credit scheme credits the same rollouts with one
 * answerer (a paired comparison), each step is labelled on / off a gold path from the question's gold
 * sentences, and main/rl/credit-quality measures how well each per-step signal ranks the gold-path
 * steps. The answerer is the caller's: the run's own, or an offline stand-in named in the result.
 */
import type SQLite from 'better-sqlite3'
import type { Answerer } from '../../harness'
import { creditSchemes, memoScorer, type StepCredit } from '../../rl/credit'
import { creditSignals, goldPathLabels, signalQuality, type CreditedGroup, type CreditedRollout, type SignalQuality } from '../../rl/credit-quality'
import { episodeColumns } from '../../db/episode-columns'
import { EvidenceResolver } from '../metrics/evidence'
import { creditSteps } from './credit-steps'
import { rolloutsForReplay } from './queries'
import { replayRollout } from '../runs/replay'

export interface CreditQualityOptions {
  /** First and last training step whose rollouts are measured; 0..0 (the untrained policy's) by default. */
  fromStep?: number
  toStep?: number
  /** Lambda of the combined advantage; the run's own when it uses one, else 0.5. */
  lambda?: number
  /** Bootstrap resamples over questions (1000 by default) and their seed. */
  resamples?: number
  seed?: number
}

export interface CreditQualityReport {
  runId: number
  fromStep: number
  toStep: number
  answerer: string
  /** The answerer is a lexical stand-in, not a model's likelihood. */
  standIn: boolean
  lambda: number
  schemes: string[]
  questions: number
  rollouts: number
  /** Rollouts left out: pruned steps, or a replay that no longer matches the stored evidence. */
  skipped: number
  /** Per signal: `<scheme>` (the combined advantage), `<scheme>:credit`, `snc:frontier|enablement|gain`. */
  signals: Record<string, SignalQuality>
}

export async function runCreditQuality(raw: SQLite.Database, runId: number, answerer: Answerer, options: CreditQualityOptions = {}): Promise<CreditQualityReport> {
  const fromStep = options.fromStep ?? 0
  const toStep = options.toStep ?? fromStep
  if (!Number.isInteger(fromStep) || fromStep < 0 || !Number.isInteger(toStep) || toStep < fromStep) throw new RangeError(`steps must be integers with 0 <= from <= to, got ${fromStep}..${toStep}`)
  const { config, rollouts } = rolloutsForReplay(raw, runId, fromStep, toStep)
  if (rollouts.length === 0) throw new RangeError(`Training run #${runId} has no stored rollouts in steps ${fromStep}..${toStep}`)
  const lambda = options.lambda ?? (config.credit.lambda > 0 ? config.credit.lambda : 0.5)
  const schemes = creditSchemes.names()
  const evidence = new EvidenceResolver(raw)
  const sentences = evidence.sentenceReader()
  // One group per (step, question): the G rollouts the trainer compared with each other.
  const groups = new Map<string, CreditedGroup & { rollouts: CreditedRollout[] }>()
  let skipped = 0
  for (const row of rollouts) {
    if (!row.steps) {
      skipped++
      continue
    }
    const gold = episodeColumns.gold.read(row.goldJson)
    const { trajectory, faithful } = await replayRollout(
      raw,
      { environment: config.environment, envConfig: config.envConfig ?? {}, questionId: row.questionId, question: row.question, seed: row.seed, gold, outcomeJson: row.outcomeJson, steps: row.steps },
      { observations: true },
    )
    if (!faithful) {
      skipped++
      continue
    }
    const steps = creditSteps(trajectory)
    const resolved = evidence.gold(gold)
    const answer = gold.answers[0] ?? ''
    const scorer = memoScorer(async (ids) => answerer.score(row.question, sentences(ids).map((s) => s.text), answer))
    const credits: Record<string, StepCredit[]> = {}
    for (const name of schemes) credits[name] = await creditSchemes.get(name).impl({ steps, score: (ids) => scorer.score(ids), seed: row.seed })
    const metrics = episodeColumns.metrics.read(row.metricsJson)
    const key = `${row.step}:${row.questionId ?? row.question}`
    const group = groups.get(key) ?? { questionId: String(row.questionId ?? row.question), questionType: row.questionType ?? null, hops: resolved.documentIds.length, rollouts: [] }
    group.rollouts.push({ labels: goldPathLabels(steps, resolved.sentenceIds), reward: metrics['train.reward'] ?? 0, credits })
    groups.set(key, group)
  }
  const list = [...groups.values()]
  const signals = creditSignals(list, { schemes, lambda, estimator: config.estimator })
  const quality = Object.fromEntries(Object.entries(signals).map(([name, gs]) => [name, signalQuality(gs, { resamples: options.resamples ?? 1000, seed: options.seed ?? 0 })]))
  return {
    runId, fromStep, toStep, answerer: answerer.name, standIn: (answerer as { lexical?: boolean }).lexical === true, lambda, schemes,
    questions: list.length, rollouts: list.reduce((n, g) => n + g.rollouts.length, 0), skipped, signals: quality,
  }
}
