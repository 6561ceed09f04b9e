/**
 * A claim of the papers, declared once: what the paper reports, the matched experiment that tests it (an
 * ablation over the workspace's own questions; claims with the same experiment key share one) and how
 * its effect and charts are read from that experiment's results. Knows nothing of Electron or jobs.
 */
import type SQLite from 'better-sqlite3'
import type { AblationConfigInput, AblationResults, ClaimResult, FindingsConfig, FindingsSeries, GgufTrainConfig } from '../../../../preload/contract'
import type { BudgetSpec } from '../budget'
import type { KeyedValues } from '../../ablation/paired'
import type { Effect, Preconditions } from '../verdict'

/** A range of the question set: a stored split, or offset and limit. */
export interface QuestionRange {
  split?: string
  offset: number
  limit: number
}

export interface PlanContext {
  questionSetId: number
  heldOut: QuestionRange
  train: QuestionRange
  budget: BudgetSpec
  seeds: number[]
  answerer: FindingsConfig['answerer']
  /** The evidence F1 the set's gold supports: sentence level where it has supporting facts. */
  evidenceMetric: 'sp.f1' | 'paragraph.f1'
  /** With the GGUF policy: the model every training arm trains (its own weights) and the options; absent or null: the head. */
  gguf?: GgufTrainConfig | null
}

export interface ExperimentPlan {
  /** Claims that name the same key share one ablation. */
  key: string
  config: AblationConfigInput
}

export interface MeasureInput {
  raw: SQLite.Database
  plan: PlanContext
  results: AblationResults
}

export interface Measured {
  effectLabel: string
  metric: string
  effect: Effect
  arms: ClaimResult['arms']
  series: FindingsSeries[]
  departures: string[]
  /** The two arms the effect compares (reference, treatment): a label, the ablation row and the effect's values; what the preconditions read. */
  compared: [ComparedArm, ComparedArm]
}

export interface ComparedArm {
  label: string
  /** The ablation row's label. */
  row: string
  values: KeyedValues
}

export interface ClaimDeclaration {
  number: number
  name: string
  title: string
  paper: { source: string; figure: string }
  /** One line: how the effect is measured (README and the Findings page). */
  measure: string
  expected: 'positive' | 'negative'
  /** What the data must show before the claim is judged (else the verdict is `no evidence`); checked by verdict.ts. */
  preconditions: Preconditions
  experiment(plan: PlanContext): ExperimentPlan
  evaluate(input: MeasureInput): Measured
}
