import type { Trajectory } from '../../main/harness'
import type { EvaluationRunConfig } from '../../preload/contract'

/** The environment's snapshot after reset and after every step, in order (what replay tests compare). */
export const snapshotsOf = (t: Trajectory): unknown[] => [t.initialSnapshot, ...t.steps.map((s) => s.snapshot)]

/** A complete evaluation run config for tests that store episodes directly (scripted policy, lexical answerer, set 1). */
export const evaluationConfig = (environment: string, envConfig: Record<string, unknown> = {}): EvaluationRunConfig => ({
  kind: 'evaluation', name: 'test', environment, envConfig, policy: { kind: 'scripted', name: 'test' }, answerer: { kind: 'lexical', name: 'lexical', lexical: true },
  questionSetId: 1, offset: 0, limit: 1, seed: 1, previews: false,
})
