/**
 * From a batch of rollout groups to one update: outcome advantages by the configured estimator, DAPO-style
 * dropping of zero-variance groups, per-step credit combined with the outcome advantage by lambda, then the
 * policy update and the step's diagnostics.
 */
import type { Adam, PolicyHead } from '../../policy/head'
import type { HeadDecisionRecord } from '../../policy/head-policy'
import type { StepCredit } from '../credit'
import type { UpdateConfig } from './config'
import { groupAdvantages } from './group-advantages'
import { stepDiagnostics, type RolloutSummary, type StepDiagnostics } from './diagnostics'
import { policyUpdate, type TrainingSample, type UpdateStats } from './update'

export interface TrainingRollout {
  summary: RolloutSummary
  /** The head's decisions, each tagged with its episode step. */
  records: HeadDecisionRecord[]
  /** Per episode step credit (the outcome scheme gives zeros). */
  credit: StepCredit[]
}

export interface BatchResult {
  /** Outcome advantage of each rollout, per group. */
  outcomeAdvantages: number[][]
  /** Final per-step advantage of each rollout's steps, per group (what the loss used). */
  stepAdvantages: number[][][]
  kept: number[]
  creditScale: number
  update: UpdateStats
  diagnostics: StepDiagnostics
}

export function trainOnBatch(head: PolicyHead, adam: Adam, groups: readonly (readonly TrainingRollout[])[], config: UpdateConfig): BatchResult {
  const { outcomeAdvantages, kept, keptSet, flat, combined } = groupAdvantages(groups, config)
  const stepAdvantages: number[][][] = groups.map(() => [])
  const samples: TrainingSample[] = []
  flat.forEach((x, i) => {
    const perStep = combined.perStep[i]!
    stepAdvantages[x.gi]!.push(perStep)
    if (!keptSet.has(x.gi)) {
      if (config.entropyOnDropped) for (const record of x.r.records) samples.push({ record, advantage: 0, entropyOnly: true })
      return
    }
    for (const record of x.r.records) samples.push({ record, advantage: perStep[record.t] ?? x.a })
  })
  const update = policyUpdate(head, adam, samples, config)
  const diagnostics = stepDiagnostics(groups.map((g) => g.map((r) => r.summary)), flat.map((x) => x.a))
  return { outcomeAdvantages, stepAdvantages, kept, creditScale: combined.scale, update, diagnostics }
}
