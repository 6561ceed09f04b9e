/**
 * One training rollout: the episode through the one loop (with the observations and previews credit needs),
 * scored once (evaluation metrics, the environment's reward terms, evidence count, answerer likelihood when
 * weighted), the configured reward, and the per-step credit.
 */
import type SQLite from 'better-sqlite3'
import { runEpisode, SEARCH_TOOL, type Answerer, type Environment, type EnvQuestion, type Policy, type Trajectory } from '../../harness'
import type { HeadDecisionRecord, HeadPolicy } from '../../policy/head-policy'
import { creditSchemes, memoScorer, type StepCredit } from '../../rl/credit'
import { computeReward, rewardCorrect, type RewardConfig, type RewardValue } from '../../rl/reward-schemes'
import type { TrainingRollout } from '../../rl/trainer'
import type { EvidenceResolver } from '../metrics/evidence'
import { creditSteps } from './credit-steps'
import { rewarderFor } from '../metrics/rewards'
import { scoreEpisode } from '../metrics/score'

export interface RolloutContext {
  raw: SQLite.Database
  evidence: EvidenceResolver
  answerer: Answerer
  reward: RewardConfig
  /** The environment's declared reward scheme, scored when the reward weighs the harness1 term. */
  rewardScheme: string | null
  credit: string
}

export interface PlayedRollout extends TrainingRollout {
  trajectory: Trajectory
  reward: RewardValue
  metrics: Record<string, number | null>
}


/** `policy` is the head's (its decision records feed the head update) or any other, e.g. a GGUF menu policy (no records). */
export async function playRollout(env: Environment, policy: HeadPolicy | Policy, question: EnvQuestion, seed: number, ctx: RolloutContext): Promise<PlayedRollout> {
  // A scheme that reads no previews (outcome) leaves every step's credit at 0: nothing to record or score.
  const scheme = creditSchemes.get(ctx.credit)
  const needsCredit = scheme.capabilities.needsPreviews
  const rewarder = ctx.reward.weights.harness1 ? rewarderFor(ctx.rewardScheme, ctx.raw, ctx.reward.harness1Weights) : null
  const trajectory = await runEpisode(env, policy, question, seed, {
    previews: needsCredit,
    snapshots: false,
    observations: needsCredit,
    finish: async (_env, outcome) => {
      const texts = ctx.evidence.evidenceTexts(outcome)
      const answer = outcome.answer ?? (await ctx.answerer.answer(question.question, texts))
      const metrics: Record<string, number | null> = { ...scoreEpisode(question, outcome, answer, ctx.evidence), ...(rewarder?.(question, outcome) ?? {}) }
      metrics['evidence.count'] = (outcome.evidence.sentenceIds ?? outcome.evidence.chunkIds ?? []).length
      if (ctx.reward.weights['answerer.loglik'] && question.answers[0]) metrics['answerer.loglik'] = await ctx.answerer.score(question.question, texts, question.answers[0])
      return { answer, metrics }
    },
  })
  const records: HeadDecisionRecord[] = 'records' in policy ? [...(policy as HeadPolicy).records] : []
  const reward = computeReward(trajectory.metrics, ctx.reward)
  let credit: StepCredit[] = trajectory.steps.map(() => ({ total: 0, frontier: 0, enablement: 0, gain: 0, alternatives: [] }))
  if (needsCredit) {
    const gold = question.answers[0] ?? ''
    const sentences = ctx.evidence.sentenceReader()
    const scorer = memoScorer(async (ids) => ctx.answerer.score(question.question, sentences(ids).map((s) => s.text), gold))
    credit = await scheme.impl({ steps: creditSteps(trajectory), score: (ids) => scorer.score(ids), seed })
  }
  const outcome = trajectory.outcome
  const summary = {
    reward: reward.total,
    components: reward.components,
    // Judged by the run's own reward (half its best or more), so a zero reward is never "correct".
    correct: rewardCorrect(reward.total, ctx.reward) ?? false,
    evidence: outcome.evidence.sentenceIds ?? outcome.evidence.chunkIds ?? [],
    queries: trajectory.steps.flatMap((s) => (s.action.kind === 'tool' && s.action.name === SEARCH_TOOL ? [String((s.action.arguments as { query?: unknown }).query ?? '')] : [])),
    actions: trajectory.steps.filter((s) => s.info.valid).map((s) => {
      const a = s.action
      if (a.kind === 'tool') return a.name
      if (a.kind === 'menu' && s.actions.kind === 'menu') return s.actions.items.find((i) => i.id === a.id)?.type ?? a.id
      return a.kind === 'menu' ? a.id.replace(/[0-9]+$/, '') : 'text'
    }),
    turns: outcome.turns,
  }
  return { trajectory, records, reward, metrics: trajectory.metrics, credit, summary }
}
