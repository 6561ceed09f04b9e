/**
 * Advantage estimators by name, in the style of verl's register_adv_est: a run config names its
 * estimator and new ones plug in without touching the trainer.
 */
import { namedRegistry } from '../named-registry'
import { grpo, meanCentred, reinforcePlusPlus, rloo, type AdvantageEstimator } from './group'

const estimators = namedRegistry<AdvantageEstimator>('advantage estimator', [
  ['grpo', grpo],
  ['mean-centred', meanCentred],
  ['rloo', rloo],
  ['reinforce++', reinforcePlusPlus],
])

export const registerEstimator = (name: string, fn: AdvantageEstimator): void => estimators.register(name, fn)
export const estimator = (name: string): AdvantageEstimator => estimators.get(name)
export const estimatorNames = (): string[] => estimators.names()
