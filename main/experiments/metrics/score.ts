import type { EnvQuestion, EpisodeOutcome } from '../../harness'
import type { EvidenceResolver } from './evidence'
import { metrics } from './registry'
import { scoredEpisode } from './scored-episode'

export type EpisodeMetrics = Record<string, number | null>

/**
 * Every metric of one episode that its declaration computes from the scored episode
 * (main/experiments/metrics/): answer EM/F1 under each normalisation, supporting-fact and paragraph
 * set metrics, Harness-1 recalls, turns and format errors. A metric that does not apply to the episode
 * (no gold of its level) is left out; the others are written by the parts of the run their declarations name.
 */
export function scoreEpisode(question: EnvQuestion, outcome: EpisodeOutcome, answer: string, evidence: EvidenceResolver): EpisodeMetrics {
  const scored = scoredEpisode(question, outcome, answer, evidence)
  const m: EpisodeMetrics = {}
  for (const d of metrics.declarations()) {
    if (!('compute' in d.impl)) continue
    const value = d.impl.compute(scored)
    if (value !== undefined) m[d.name] = value
  }
  return m
}
