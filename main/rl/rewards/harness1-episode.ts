/** Scores a finished Harness-1 episode: gold resolution (document or fact level), then the reward. */
import type { EnvQuestion, EpisodeOutcome } from '../../harness'
import { episodeRecalls, type EpisodeRecallOptions, type EvidenceSource, type RecallLevel } from './harness1-gold'
import { harness1Reward, type Harness1RewardBreakdown } from './harness1-reward'
import { PUBLISHED_HARNESS1_WEIGHTS, type Harness1Weights } from './harness1-weights'

export interface Harness1EpisodeScore extends Harness1RewardBreakdown {
  level: RecallLevel
  /** Gold missing from the corpus, level fallbacks. */
  goldNotes: string[]
  curatedRecall: number | null
}

export function scoreHarness1Episode(
  source: EvidenceSource,
  question: EnvQuestion,
  outcome: EpisodeOutcome,
  toolsUsed: readonly string[],
  options: { weights?: Harness1Weights; level?: RecallLevel; isAnswerBearing?: EpisodeRecallOptions['isAnswerBearing'] } = {},
): Harness1EpisodeScore {
  const weights = options.weights ?? PUBLISHED_HARNESS1_WEIGHTS
  const curated = outcome.evidence.chunkIds ?? []
  const r = episodeRecalls(source, question, curated, outcome.seen.chunkIds ?? [], {
    beta: weights.beta,
    ...(options.level ? { level: options.level } : {}),
    ...(options.isAnswerBearing ? { isAnswerBearing: options.isAnswerBearing } : {}),
  })
  const breakdown = harness1Reward(
    { recalls: r.recalls, curatedCount: curated.length, turns: outcome.turns, toolsUsed, formatErrors: outcome.formatErrors },
    weights,
  )
  return { ...breakdown, level: r.level, goldNotes: r.notes, curatedRecall: r.recalls.curatedRecall }
}
