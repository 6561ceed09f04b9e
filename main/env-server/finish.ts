/**
 * What finishing an episode returns to a trainer: the metrics an evaluation would store, the configured
 * reward (rl/reward-schemes) with its components, and per-step credit from the configured scheme
 * (rl/credit). The same pieces as a training rollout (main/experiments/training/rollouts.ts), so an
 * episode scores the same whether the app's trainer or an external one played it.
 */
import type SQLite from 'better-sqlite3'
import { protocolTrainingDefaults } from '../../preload/contract'
import type { Answerer, EpisodeOutcome, EnvQuestion, Protocol, Trajectory } from '../harness'
import type { EvidenceResolver } from '../experiments/metrics/evidence'
import { creditSteps } from '../experiments/training/credit-steps'
import { rewarderFor } from '../experiments/metrics/rewards'
import { scoreEpisode } from '../experiments/metrics/score'
import { creditSchemes, memoScorer, type StepCredit } from '../rl/credit'
import { computeReward, protocolDefaultReward, type RewardConfig, type RewardValue } from '../rl/reward-schemes'

export interface FinishContext {
  raw: SQLite.Database
  evidence: EvidenceResolver
  answerer: Answerer
}

/** The reward an environment trains on when the server or the request names none (rl/reward-schemes: its protocol's declared default). */
export const defaultReward = protocolDefaultReward

/** The credit a protocol's episodes get unless asked otherwise (the contract's PROTOCOL_TRAINING_DEFAULTS, as training's). */
export function defaultCredit(protocol: Protocol): string {
  return protocolTrainingDefaults(protocol).credit
}

/** The finish hook of the episode loop: the answer (the environment's, the trainer's, else the answerer's) and every metric the reward may read. */
export function finishHook(ctx: FinishContext, question: EnvQuestion, reward: RewardConfig, rewardScheme: string | null, trainerAnswer: () => string | undefined) {
  const rewarder = rewarderFor(rewardScheme, ctx.raw, reward.harness1Weights)
  return async (_env: unknown, outcome: EpisodeOutcome): Promise<{ answer: string; metrics: Record<string, number | null> }> => {
    const texts = ctx.evidence.evidenceTexts(outcome)
    const given = trainerAnswer()
    const answer = outcome.answer ?? (given !== undefined ? given : await ctx.answerer.answer(question.question, texts))
    // The trainer's answer is scored even when the environment also ended with one of its own.
    const scored = given !== undefined ? given : answer
    const metrics: Record<string, number | null> = { ...scoreEpisode(question, outcome, scored, ctx.evidence), ...(rewarder?.(question, outcome) ?? {}) }
    metrics['evidence.count'] = (outcome.evidence.sentenceIds ?? outcome.evidence.chunkIds ?? []).length
    if (reward.weights['answerer.loglik'] && question.answers[0]) metrics['answerer.loglik'] = await ctx.answerer.score(question.question, texts, question.answers[0])
    return { answer: scored, metrics }
  }
}

export interface FinishResult {
  reward: RewardValue
  credit: StepCredit[]
}

/** Reward and per-step credit of a finished trajectory. */
export async function rewardAndCredit(ctx: FinishContext, trajectory: Trajectory, reward: RewardConfig, credit: string): Promise<FinishResult> {
  const value = computeReward(trajectory.metrics, reward)
  // A scheme that reads no previews (outcome) gives every step 0.
  if (!creditSchemes.get(credit).capabilities.needsPreviews || trajectory.steps.length === 0) return { reward: value, credit: trajectory.steps.map(() => ({ total: 0, frontier: 0, enablement: 0, gain: 0, alternatives: [] })) }
  const question = trajectory.question
  const gold = question.answers[0] ?? ''
  const sentences = ctx.evidence.sentenceReader()
  const scorer = memoScorer(async (ids) => ctx.answerer.score(question.question, sentences(ids).map((s) => s.text), gold))
  const steps = await creditSchemes.get(credit).impl({ steps: creditSteps(trajectory), score: (ids) => scorer.score(ids), seed: trajectory.seed })
  return { reward: value, credit: steps }
}
