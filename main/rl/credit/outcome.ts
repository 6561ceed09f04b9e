/** Outcome-only credit: every step gets 0, so the outcome advantage alone drives learning (lambda irrelevant). */
import { zeroCredit, type CreditScheme } from './types'

export const outcomeCredit: CreditScheme = (input) => Promise.resolve(input.steps.map(zeroCredit))
