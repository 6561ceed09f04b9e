/**
 * The two budgets of a findings run. `quick` is a smoke test of the protocol (few steps, few questions,
 * one seed); `full` is sized to finish the five claims on the demo world on two cores in 30 minutes with
 * what the verdicts need (3 seeds, every held-out question up to 128, groups of 8) and lists where it
 * departs from the papers. The single Harness-1 switches of claim 4 (24 more Harness-1 training runs at
 * 3 seeds, about 40 more minutes on two cores) run when asked for (`singleMechanisms`).
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
  /** Harness-1 mechanisms switched off one at a time (else only the all-off row besides the full harness). */
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
    // Sized by the profile of the demo world on two cores (docs/snc-investigation.md, "The full budget"):
    // a Harness-1 rollout costs about six graph-menu rollouts (claims 4-5 train 3 Harness-1 arms per seed).
    steps: 30,
    groupSize: 8,
    questionsPerStep: 4,
    seeds: 3,
    singleMechanisms: false,
    departures: [
      "full budget: 30 steps of 4 questions x 8 rollouts (papers: 120 steps of 128 x 8), 3 seeds; train and held-out counts capped by the question set; sized to finish on the demo world on two cores in 30 minutes",
    ],
  },
}
