import type SQLite from 'better-sqlite3'
import type { EnvQuestion, EpisodeOutcome } from '../../harness'
import { goldEvidence } from '../../corpus/gold'
import { resolveHarness1Weights, scoreHarness1Episode } from '../../rl/rewards'

/** Per-episode reward terms stored beside the evaluation metrics. */
export type EpisodeRewarder = (question: EnvQuestion, outcome: EpisodeOutcome) => Record<string, number | null>

/**
 * The reward scheme an environment declares, every term stored separately (`reward.<term>` = weighted
 * value, `reward.total`). Harness-1's uses the published weights unless the run edits them; environments
 * that declare none (Harness-G: its credit, SNC, belongs to training runs) store no reward here.
 */
export function rewarderFor(scheme: string | null, raw: SQLite.Database, edits: Record<string, unknown> = {}): EpisodeRewarder | null {
  if (scheme !== 'harness1') return null
  const weights = resolveHarness1Weights(edits)
  const evidence = goldEvidence(raw)
  return (question, outcome) => {
    const score = scoreHarness1Episode(evidence, question, outcome, outcome.toolsUsed, { weights })
    const metrics: Record<string, number | null> = { 'reward.total': score.total }
    for (const [name, term] of Object.entries(score.terms)) metrics[`reward.${name}`] = term.value
    metrics['harness1.curatedRecall'] = score.curatedRecall
    return metrics
  }
}
