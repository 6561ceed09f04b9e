/**
 * Training runs in the contract: the run's configuration (every choice a registry name or a number, so an
 * ablation of training is a config delta), the train.run job's parameters and result.
 */
import { z } from 'zod'

export const RewardConfigSchema = z.strictObject({
  /** Term name -> weight; terms left out weigh 0. */
  weights: z.record(z.string(), z.number()),
  normalisation: z.enum(['official', 'graphr1']).default('official'),
  /** Edits over the published Harness-1 weights, used when the harness1 term is weighted. */
  harness1Weights: z.record(z.string(), z.number()).default({}),
})

const Split = z.strictObject({
  questionSetId: z.number().int().min(1),
  offset: z.number().int().min(0).default(0),
  limit: z.number().int().min(1).max(100_000),
})
export type SplitSpec = z.infer<typeof Split>

export const TrainConfigSchema = z.strictObject({
  name: z.string().trim().max(200).default(''),
  environment: z.string().min(1).max(64),
  envConfig: z.record(z.string(), z.unknown()).default({}),
  head: z.strictObject({ arch: z.enum(['linear', 'mlp']).default('mlp'), hidden: z.number().int().min(1).max(512).default(32) }).default({ arch: 'mlp', hidden: 32 }),
  reward: RewardConfigSchema.default({ weights: { 'sp.f1': 1 }, normalisation: 'official', harness1Weights: {} }),
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
export type TrainConfig = z.infer<typeof TrainConfigSchema>
export type TrainConfigInput = z.input<typeof TrainConfigSchema>

export const TrainParams = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('new'), config: TrainConfigSchema, answerer: z.discriminatedUnion('kind', [z.strictObject({ kind: z.literal('lexical') }), z.strictObject({ kind: z.literal('gguf'), modelPath: z.string().trim().min(1).max(4096) })]).default({ kind: 'lexical' }) }),
  /** Continue a cancelled, failed or interrupted run from its last completed step. */
  z.strictObject({ mode: z.literal('resume'), runId: z.number().int().min(1) }),
])
export type TrainParams = z.infer<typeof TrainParams>

export const TrainResult = z.object({ runId: z.number(), steps: z.number(), before: z.number().nullable(), after: z.number().nullable() })
