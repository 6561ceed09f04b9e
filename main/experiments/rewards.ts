import type SQLite from 'better-sqlite3'
import type { Environment } from '../harness/types'
import { resolveHarness1Weights, scoreHarness1Episode } from '../rl/rewards'
import type { EpisodeRewarder } from './episode'

interface ToolUsing {
  toolsUsed(): string[]
}
const usesTools = (env: Environment): env is Environment & ToolUsing => typeof (env as Partial<ToolUsing>).toolsUsed === 'function'

/**
 * Harness-1's reward, every term stored separately (`reward.<term>` = weighted value, `reward.total`), with the
 * published weights unless the run edits them. Environments without tool use (Harness-G) get no reward here:
 * their credit (SNC) belongs to training runs.
 */
export function harness1Rewarder(raw: SQLite.Database, edits: Record<string, unknown> = {}): EpisodeRewarder {
  const weights = resolveHarness1Weights(edits)
  return (env, question, outcome) => {
    if (!usesTools(env)) return {}
    const score = scoreHarness1Episode(raw, question, outcome, env.toolsUsed(), { weights })
    const metrics: Record<string, number | null> = { 'reward.total': score.total }
    for (const [name, term] of Object.entries(score.terms)) metrics[`reward.${name}`] = term.value
    metrics['harness1.curatedRecall'] = score.curatedRecall
    return metrics
  }
}
