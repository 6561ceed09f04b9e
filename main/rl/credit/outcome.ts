/** Outcome-only credit: every step gets 0, so the outcome advantage alone drives learning (lambda irrelevant). */
import { zeroCredit, type CreditDeclaration, type CreditScheme } from './types'

export const outcomeCredit: CreditScheme = (input) => Promise.resolve(input.steps.map(zeroCredit))

export const outcomeDeclaration: CreditDeclaration = {
  name: 'outcome',
  label: 'Outcome only',
  description: "Every step gets its rollout's group advantage; lambda is not used.",
  capabilities: { needsPreviews: false, usesLambda: false },
  impl: outcomeCredit,
}
