/**
 * The two budgets of a findings run. `quick` is sized to finish the five experiments on the demo world
 * on two cores in under 30 minutes (few steps, few questions, one seed); `full` follows the papers'
 * protocol where this machine allows and lists where it departs.
 */
import type { FindingsBudget } from '../../../preload/contract'

export interface BudgetSpec {
  name: FindingsBudget
  /** Held-out questions (the paper: 128 per dataset). */
  heldOut: number
  /** Train questions available to the training runs. */
  train: number
  steps: number
  groupSize: number
  questionsPerStep: number
  seeds: number
  /** Harness-1 mechanisms switched off one at a time (quick: only the all-off row besides the full harness). */
  singleMechanisms: boolean
  /** Where this budget departs from the papers' protocol. */
  departures: string[]
}

export const BUDGETS: Record<FindingsBudget, BudgetSpec> = {
  quick: {
    name: 'quick',
    heldOut: 12,
    train: 24,
    steps: 6,
    groupSize: 4,
    questionsPerStep: 4,
    seeds: 1,
    singleMechanisms: false,
    departures: ['quick budget: 6 steps of 4 questions x 4 rollouts (papers: 120 steps, batch 128 x 8), 12 held-out questions, 1 seed; a smoke test of the protocol, not evidence'],
  },
  full: {
    name: 'full',
    heldOut: 128,
    train: 512,
    steps: 120,
    groupSize: 8,
    questionsPerStep: 16,
    seeds: 3,
    singleMechanisms: true,
    departures: ['full budget: batch 16 questions x 8 rollouts per step (papers: 128 x 8) over 120 steps; train and held-out counts capped by the question set'],
  },
}
