/**
 * IGPO-style information gain, the comparison to SNC (README, "Environments, policies and evaluation", Training): credit of turn t is the
 * answerer's score of everything seen and committed after the turn minus before it. No alternatives
 * and no provenance: it rewards any turn that raised the answer likelihood, however it compares with
 * the other moves on offer.
 */
import { canonicalSet, memoScorer, sameSet } from './evidence'
import { clampTo, isInformationAction, resolveCreditOptions, type CreditDeclaration, type CreditScheme, type CreditStep } from './types'

const evidenceBefore = (step: CreditStep): number[] => canonicalSet([...step.seenBefore, ...step.committedBefore])

export const infoGain: CreditScheme = async (input, options) => {
  const { clamp } = resolveCreditOptions(options)
  const scorer = memoScorer(input.score)
  const steps = input.steps
  const credits = []
  for (const [t, step] of steps.entries()) {
    const before = evidenceBefore(step)
    const next = steps[t + 1]
    // The state after a turn is the next step's "before"; the last turn has no next step, so its
    // effect is read off the chosen item's preview (nothing for ANSWER or an invalid step).
    let after: number[]
    if (next !== undefined) after = evidenceBefore(next)
    else {
      const preview = isInformationAction(step.chosen.type) ? (step.previewOf[step.chosen.id] ?? []) : []
      after = canonicalSet([...before, ...preview])
    }
    // An unchanged evidence set gains exactly 0, without asking the scorer.
    const gain = sameSet(before, after) ? 0 : (await scorer.score(after)) - (await scorer.score(before))
    credits.push({ total: clampTo(gain, clamp), frontier: 0, enablement: 0, gain, alternatives: [] })
  }
  return credits
}

export const infoGainDeclaration: CreditDeclaration = {
  name: 'info-gain',
  label: 'Information gain (IGPO-style)',
  description: "The answerer's likelihood of the gold answer after each turn minus before it, combined with the outcome advantage by lambda. Needs menu previews.",
  capabilities: { needsPreviews: true, usesLambda: true },
  impl: infoGain,
}
