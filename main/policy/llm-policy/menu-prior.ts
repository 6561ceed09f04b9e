/**
 * A frozen GGUF model as the prior of the trainable head on the Harness-G menu: each candidate's prior is
 * the model's log-probability of its menu id at this state. The model's weights never change; the head
 * (and its beta) train on top of it.
 */
import type { Observation } from '../../harness'
import type { Candidate, PriorProvider } from '../head-policy'
import type { MenuLlmPolicy } from './menu-policy'

export function menuPrior(policy: MenuLlmPolicy): PriorProvider {
  return async (observation: Observation, candidates: readonly Candidate[]) => {
    const items = (observation.data as { menu?: unknown }).menu
    if (!Array.isArray(items)) return null
    const ids = candidates.map((c) => (c.action.kind === 'menu' ? c.action.id : null))
    // Only menu candidates have a menu id to score; any other mix gets no prior rather than a wrong one.
    if (ids.some((id) => id === null)) return null
    return policy.menuLogprobs(observation, { kind: 'menu', items }, ids as string[])
  }
}
