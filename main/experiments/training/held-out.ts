/**
 * Held-out evaluation of a training run: any policy, greedy by its own settings, on the held-out split,
 * with per-question metrics and bootstrap CIs seeded by the run seed (so a resumed run's figures equal
 * the uninterrupted run's).
 */
import { aggregate } from '../../eval'
import { runEpisode, type Answerer, type Environment, type Policy, type Trajectory } from '../../harness'
import { candidateBuilder, HeadPolicy, type PriorProvider } from '../../policy/head-policy'
import type { PolicyHead } from '../../policy/head'
import type { EvidenceResolver } from '../metrics/evidence'
import type { EpisodeRewarder } from '../metrics/rewards'
import type { StoredQuestion } from '../questions'
import { scoreEpisode } from '../metrics/score'
import type { TrainingStore } from './store'

export interface HeldOutResult {
  aggregates: ReturnType<typeof aggregate>
  perQuestion: Record<string, Record<string, number | null>>
}

const aggregated = (perQuestion: HeldOutResult['perQuestion'], seed: number): HeldOutResult => ({
  aggregates: aggregate(Object.entries(perQuestion).map(([questionId, metrics]) => ({ questionId, variant: null, metrics })), { seed }),
  perQuestion,
})

/** The greedy (argmax) head on the held-out split. */
export async function evaluateHead(env: Environment, head: PolicyHead, protocol: Parameters<typeof candidateBuilder>[0], questions: StoredQuestion[], answerer: Answerer, evidence: EvidenceResolver, seed: number, prior?: PriorProvider): Promise<HeldOutResult> {
  const policy = new HeadPolicy(head, candidateBuilder(protocol), { mode: 'greedy', ...(prior ? { prior } : {}) })
  return evaluatePolicy(env, policy, questions, answerer, evidence, seed)
}

/**
 * Any policy (greedy by its own settings) on the held-out split; `onTrajectory` sees each episode. `rewarder`,
 * the environment's reward scheme (Harness-1's), stores its terms and curated recall beside the metrics, as an
 * evaluation run does, so a run trained on that reward has its headline on the held-out split too.
 */
export async function evaluatePolicy(env: Environment, policy: Policy, questions: StoredQuestion[], answerer: Answerer, evidence: EvidenceResolver, seed: number, onTrajectory?: (t: Trajectory) => void, rewarder?: EpisodeRewarder | null): Promise<HeldOutResult> {
  const perQuestion: Record<string, Record<string, number | null>> = {}
  for (const q of questions) {
    const t = await runEpisode(env, policy, q, (seed * 1_000_003 + q.rowId) >>> 0, {
      snapshots: false,
      finish: async (_e, outcome) => {
        const answer = outcome.answer ?? (await answerer.answer(q.question, evidence.evidenceTexts(outcome)))
        const m: Record<string, number | null> = { ...scoreEpisode(q, outcome, answer, evidence), ...(rewarder?.(q, outcome) ?? {}) }
        m['evidence.count'] = (outcome.evidence.sentenceIds ?? outcome.evidence.chunkIds ?? []).length
        return { answer, metrics: m }
      },
    })
    perQuestion[String(q.rowId)] = t.metrics
    onTrajectory?.(t)
  }
  return aggregated(perQuestion, seed)
}

/** The held-out result stored with step 0 (a resumed run evaluated it before it stopped). */
export function firstHeldOut(store: TrainingStore, runId: number, seed: number): HeldOutResult | null {
  const first = store.diagnostics(runId)[0]?.diagnostics.heldOutPerQuestion
  return first ? aggregated(first, seed) : null
}
