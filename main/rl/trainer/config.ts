/**
 * A training run's configuration, resolved and stored with the run. Every choice is a registry name or a
 * number, so an ablation of training is a config delta.
 */
import { z } from 'zod'
import { rewardConfigSchema } from '../reward-schemes'

const Split = z.strictObject({
  questionSetId: z.number().int().min(1),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(100_000),
})
export type SplitSpec = z.infer<typeof Split>

export const trainConfigSchema = z.strictObject({
  name: z.string().trim().max(200).default(''),
  environment: z.string().min(1).max(64),
  envConfig: z.record(z.string(), z.unknown()).default({}),
  head: z.strictObject({ arch: z.enum(['linear', 'mlp']).default('mlp'), hidden: z.number().int().min(1).max(512).default(32) }).default({ arch: 'mlp', hidden: 32 }),
  reward: rewardConfigSchema.default({ weights: { 'sp.f1': 1 }, normalisation: 'official', harness1Weights: {} }),
  credit: z.strictObject({ scheme: z.string().min(1).default('snc'), lambda: z.number().min(0).max(10).default(0.5) }).default({ scheme: 'snc', lambda: 0.5 }),
  estimator: z.string().min(1).default('grpo'),
  loss: z.strictObject({
    name: z.string().min(1).default('cispo'),
    clipEps: z.number().positive().max(1).default(0.2),
    dualClip: z.number().min(1).nullable().default(3),
    cispoLow: z.number().min(0).default(0),
    cispoHigh: z.number().positive().default(5),
  }).default({ name: 'cispo', clipEps: 0.2, dualClip: 3, cispoLow: 0, cispoHigh: 5 }),
  /** DAPO-style: drop groups whose rollouts all got the same reward (they teach nothing). */
  dropZeroVariance: z.boolean().default(true),
  groupSize: z.number().int().min(1).max(64).default(8),
  questionsPerStep: z.number().int().min(1).max(256).default(16),
  steps: z.number().int().min(1).max(10_000).default(30),
  learningRate: z.number().positive().max(1).default(0.01),
  /** Optimiser passes over each batch: the ratio terms of PPO-clip / CISPO only act from the second on. */
  substeps: z.number().int().min(1).max(16).default(2),
  /** On by default: without it the zero-advantage rate climbs as the policy collapses onto one path. */
  entropyCoef: z.number().min(0).max(1).default(0.01),
  temperature: z.number().positive().max(10).default(1),
  gradClip: z.number().positive().default(1),
  seed: z.number().int().min(0).max(2 ** 31 - 1).default(1),
  /** Evaluate the greedy head on the held-out split every N steps (and before the first and after the last). */
  evalInterval: z.number().int().min(1).default(10),
  train: Split,
  heldOut: Split,
})
export type TrainConfig = z.infer<typeof trainConfigSchema>
export type TrainConfigInput = z.input<typeof trainConfigSchema>

/** Train and held-out ranges of the same set must not overlap: held-out figures would be trained on. */
export function checkSplits(config: Pick<TrainConfig, 'train' | 'heldOut'>): void {
  const a = config.train
  const b = config.heldOut
  if (a.questionSetId !== b.questionSetId) return
  const overlap = Math.min(a.offset + a.limit, b.offset + b.limit) - Math.max(a.offset, b.offset)
  if (overlap > 0) {
    throw new Error(
      `The train split (questions ${a.offset}..${a.offset + a.limit - 1}) and the held-out split (${b.offset}..${b.offset + b.limit - 1}) of set ${a.questionSetId} overlap by ${overlap}: held-out questions must never be trained on`,
    )
  }
}
