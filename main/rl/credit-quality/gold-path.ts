/**
 * Which steps of an episode lie on a gold path, from the same CreditStep records every scheme reads
 * (no answerer, no credit): a step is on the path when it
 *  - commits a gold sentence not committed before (SELECT / ANSWER_WITH), or
 *  - surfaces a gold sentence neither seen nor committed before (LOOKUP / SEARCH), or
 *  - is a provenance producer, directly or through a chain, of such a step (the bridge that made the
 *    gold step possible).
 * Only information actions are ranked: ANSWER and invalid steps get no credit in any scheme, so
 * counting them would reward a scheme for the zeros every scheme gives them.
 */
import { isInformationAction, newEvidence, type CreditStep } from '../credit'

export interface StepLabel {
  /** An information action: the steps the AUC ranks. */
  ranked: boolean
  /** On a gold path (see above). */
  gold: boolean
}

export function goldPathLabels(steps: readonly CreditStep[], goldSentenceIds: readonly number[]): StepLabel[] {
  const gold = new Set(goldSentenceIds)
  const onPath = steps.map((step) => {
    const type = step.chosen.type
    if (!isInformationAction(type)) return false
    const preview = step.previewOf[step.chosen.id] ?? []
    return newEvidence(type, preview, step.seenBefore, step.committedBefore).some((id) => gold.has(id))
  })
  // Producers precede their consumers, so one backward pass reaches every chain.
  for (let t = steps.length - 1; t >= 0; t--) {
    if (!onPath[t]) continue
    for (const p of steps[t]!.producers) if (p >= 0 && p < t) onPath[p] = true
  }
  return steps.map((step, t) => ({ ranked: isInformationAction(step.chosen.type), gold: onPath[t]! }))
}
