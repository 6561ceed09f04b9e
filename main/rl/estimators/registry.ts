/**
 * Advantage estimators by name, in the style of verl's register_adv_est: a run config names its
 * estimator and new ones plug in without touching the trainer.
 */
import { grpo, meanCentred, reinforcePlusPlus, rloo, type AdvantageEstimator } from './group'

const estimators = new Map<string, AdvantageEstimator>([
  ['grpo', grpo],
  ['mean-centred', meanCentred],
  ['rloo', rloo],
  ['reinforce++', reinforcePlusPlus],
])

/** Re-registering the same function is a no-op; a different function under a taken name throws. */
export const registerEstimator = (name: string, fn: AdvantageEstimator): void => {
  const existing = estimators.get(name)
  if (existing !== undefined && existing !== fn) throw new Error(`advantage estimator "${name}" is already registered`)
  estimators.set(name, fn)
}

export const estimator = (name: string): AdvantageEstimator => {
  const fn = estimators.get(name)
  if (fn === undefined) throw new Error(`unknown advantage estimator "${name}" (known: ${estimatorNames().join(', ')})`)
  return fn
}

export const estimatorNames = (): string[] => [...estimators.keys()]
