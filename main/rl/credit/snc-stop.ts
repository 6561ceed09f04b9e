/**
 * SNC with credit for stopping (issue 42): SNC's frontier and enablement, and each ANSWER measured against
 * continuing, so the policy learns when to stop from the same answerer scores (docs/snc-investigation.md).
 */
import { sncCredit } from './snc'
import type { CreditDeclaration, CreditScheme } from './types'

export const sncStop: CreditScheme = (input, options) => sncCredit(input, options, true)

export const sncStopDeclaration: CreditDeclaration = {
  name: 'snc-stop',
  label: 'SNC with credit for stopping',
  description:
    "SNC, plus each ANSWER measured against continuing: minus the mean gain of up to four same-state alternatives, so stopping while a move would still raise the answerer's score is charged and stopping when none would is not. Needs menu previews.",
  capabilities: { needsPreviews: true, usesLambda: true },
  impl: sncStop,
}
