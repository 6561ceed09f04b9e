/** A training run's configuration: the schema lives in the contract (preload/contract/training.ts); the checks that need logic live here. */
import type { z } from 'zod'
import { TrainConfigSchema } from '../../../preload/contract/training'

export const trainConfigSchema = TrainConfigSchema
export type TrainConfig = z.infer<typeof TrainConfigSchema>
export type TrainConfigInput = z.input<typeof TrainConfigSchema>
export type SplitSpec = TrainConfig['train']

/** What the advantage pipeline reads of a config: the estimator, zero-variance dropping, credit's lambda. */
export type AdvantageConfig = Pick<TrainConfig, 'estimator' | 'dropZeroVariance' | 'credit'>

/** What one update reads of a config (the advantage pipeline and the optimiser's numbers), nothing of the run around it. */
export type UpdateConfig = AdvantageConfig & Pick<TrainConfig, 'loss' | 'entropyCoef' | 'entropyOnDropped' | 'temperature' | 'substeps' | 'gradClip'>

export const updateConfigOf = (c: TrainConfig): UpdateConfig => ({
  estimator: c.estimator,
  dropZeroVariance: c.dropZeroVariance,
  credit: c.credit,
  loss: c.loss,
  entropyCoef: c.entropyCoef,
  entropyOnDropped: c.entropyOnDropped,
  temperature: c.temperature,
  substeps: c.substeps,
  gradClip: c.gradClip,
})

/** Train and held-out ranges of the same set must not overlap: held-out figures would be trained on. */
export function checkSplits(config: Pick<TrainConfig, 'train' | 'heldOut'>): void {
  const a = config.train
  const b = config.heldOut
  if (a.questionSetId !== b.questionSetId) return
  // Two different stored splits of a set are disjoint.
  if (a.split !== undefined && b.split !== undefined && a.split !== b.split) return
  const overlap = Math.min(a.offset + a.limit, b.offset + b.limit) - Math.max(a.offset, b.offset)
  if (overlap > 0) {
    throw new Error(
      `The train split (questions ${a.offset}..${a.offset + a.limit - 1}) and the held-out split (${b.offset}..${b.offset + b.limit - 1}) of set ${a.questionSetId} overlap by ${overlap}: held-out questions must never be trained on`,
    )
  }
}
