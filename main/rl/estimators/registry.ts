/**
 * Advantage estimators by name, in the style of verl's register_adv_est: built once from their
 * declarations, so a run config names its estimator and a new one is one file added to this list.
 */
import { namedRegistry } from '../named-registry'
import type { AdvantageEstimator, EstimatorDeclaration } from './group'
import { grpoDeclaration } from './grpo'
import { meanCentredDeclaration } from './mean-centred'
import { reinforcePlusPlusDeclaration } from './reinforce-plus-plus'
import { rlooDeclaration } from './rloo'

export const estimators = namedRegistry<EstimatorDeclaration>('advantage estimator', [grpoDeclaration, meanCentredDeclaration, rlooDeclaration, reinforcePlusPlusDeclaration])

export const estimator = (name: string): AdvantageEstimator => estimators.get(name).impl
export const estimatorNames = (): string[] => estimators.names()
