/**
 * What an ablation reads from a stored episode besides its stored metrics: wall time, the tokens of the
 * observations the policy was shown (cl100k_base, the unit the Harness-1 bench compares transcript and
 * working memory in), the policy's own output tokens where the policy reports them, and the tool mix.
 */
import { countTokens } from '../../corpus/tokens'
import type { CellEpisode, CellStep } from './store'
import { stepColumns } from '../../db/episode-columns'

export const EXTRA_METRICS = ['episode.ms', 'episode.observationTokens', 'episode.policyTokens'] as const

/** The menu item type (menu environments) or tool name (tool environments) of a step's action. */
export function actionType(step: CellStep): string {
  const action = stepColumns.action.read(step.action_json)
  if (action.kind === 'tool') return action.name || 'tool'
  if (action.kind === 'menu') {
    const menu = stepColumns.actions.read(step.actions_json)
    const type = menu.kind === 'menu' ? menu.items.find((i) => i.id === action.id)?.type : undefined
    if (type) return type
    // A tool environment that also takes menu ids directly (free query: S<n> selects, A answers): named by the id's letter.
    const prefix = /^[A-Za-z]+/.exec(action.id)?.[0]
    return prefix ? `id ${prefix}…` : 'menu id'
  }
  return action.kind
}

export interface EpisodeExtras {
  metrics: Record<(typeof EXTRA_METRICS)[number], number | null>
  tools: Record<string, number>
}

export function episodeExtras(episode: CellEpisode, steps: readonly CellStep[]): EpisodeExtras {
  let observationTokens = 0
  let policyTokens = 0
  let reported = false
  const tools: Record<string, number> = {}
  for (const s of steps) {
    observationTokens += countTokens(s.observation_text)
    const decision = stepColumns.decision.read(s.decision_json)
    if (typeof decision.tokens === 'number') {
      policyTokens += decision.tokens
      reported = true
    }
    const type = actionType(s)
    tools[type] = (tools[type] ?? 0) + 1
  }
  return {
    metrics: { 'episode.ms': episode.ms, 'episode.observationTokens': observationTokens, 'episode.policyTokens': reported ? policyTokens : null },
    tools,
  }
}
