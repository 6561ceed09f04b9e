/**
 * The ablation base every claim's experiment starts from: the trained policy on the plan's held-out and train
 * questions, with the budget's training run; the head, or the GGUF model's own weights when the plan names one.
 */
import type { AblationBaseInput } from '../../../../preload/contract'
import type { PlanContext } from './types'

export function trainedBase(plan: PlanContext, environment: string, credit: { scheme: string; lambda: number } = { scheme: 'outcome', lambda: 0 }): AblationBaseInput {
  const { budget, heldOut, train } = plan
  return {
    environment,
    policy: { kind: 'head', stage: 'after' },
    answerer: plan.answerer,
    questionSetId: plan.questionSetId,
    ...(heldOut.split !== undefined ? { split: heldOut.split } : {}),
    offset: heldOut.offset,
    limit: heldOut.limit,
    seeds: plan.seeds,
    previews: true,
    training: {
      ...(train.split !== undefined ? { split: train.split } : {}),
      offset: train.offset,
      limit: train.limit,
      steps: budget.steps,
      groupSize: budget.groupSize,
      questionsPerStep: budget.questionsPerStep,
      // Held-out evaluation once, after the last step: the claim reads the held-out split from the ablation's own evaluation.
      evalInterval: budget.steps,
      credit,
      estimator: 'grpo',
      ...(plan.gguf ? { gguf: plan.gguf } : {}),
    },
  }
}

/** The reference row of every experiment is the ablation's base, stored under this label. */
export const BASE = 'base'
