/**
 * The native GGUF trainer's wire protocol (JSON lines, protocol 3): every request the app sends and
 * every reply it reads has a schema here; replies are parsed, never cast. Requests carry every option:
 * the trainer has no defaults of its own (the defaults live in the contract's GgufTrainSchema).
 */
import { z } from 'zod'

export const TRAINER_PROTOCOL = 3

const Tokens = z.array(z.number().int().min(0))

export const LoadRequest = z.strictObject({
  model: z.string().min(1),
  /** Frozen base model for KL(policy || base); null: no KL. */
  baseModel: z.string().min(1).nullable(),
  /** Optimizer state saved with the weights (a resumed run's moments); null: fresh. */
  optimizerState: z.string().min(1).nullable(),
  optimizer: z.enum(['adamw', 'sgd']),
  weightDecay: z.number().min(0),
  beta1: z.number().min(0).lt(1),
  beta2: z.number().min(0).lt(1),
  eps: z.number().positive(),
  /** Train output, output_norm and the last N blocks only; -1: every tensor llama.cpp trains. */
  lastBlocks: z.number().int().min(-1),
  /** Longest sequence (prompt + chosen tokens); rounded up to a multiple of 256 by llama.cpp. */
  contextSize: z.number().int().min(1),
  threads: z.number().int().min(1),
  /** Layers offloaded to the GPU (-1: all, as upstream advises for training); 0 on CPU. */
  gpuLayers: z.number().int().min(-1),
  /** Refuse to load when the estimate exceeds this; 0: no limit. */
  memoryLimitBytes: z.number().int().min(0),
})
export type LoadRequest = z.infer<typeof LoadRequest>

export const EstimateRequest = LoadRequest.pick({ model: true, optimizer: true, contextSize: true, lastBlocks: true }).extend({ withBase: z.boolean() })
export type EstimateRequest = z.infer<typeof EstimateRequest>

/** One sequence of an update: weights[i] multiplies -log p(tokens[i] | tokens[<i]), klWeights[i] the KL of that distribution to the base. */
export const TrainItem = z.strictObject({ tokens: Tokens.min(2), weights: z.array(z.number()), klWeights: z.array(z.number()) })
export type TrainItem = z.infer<typeof TrainItem>

export const ProbeItem = z.strictObject({ tokens: Tokens.min(2), positions: z.array(z.number().int().min(0)) })
export type ProbeItem = z.infer<typeof ProbeItem>

export const TrainRequest = z.strictObject({
  items: z.array(TrainItem),
  lr: z.number().positive(),
  /** Clip the batch gradient to this L2 norm; 0: no clipping. */
  maxGradNorm: z.number().min(0),
  /** Halve the step while KL(policy || base) on the probe exceeds this (nats); 0: no guard. */
  klTarget: z.number().min(0),
  maxBacktracks: z.number().int().min(0),
  probe: z.array(ProbeItem),
  /** Pack the sequences into shared-prefix trees (false: one padded datapoint per sequence, the reference layout). */
  pack: z.boolean(),
})
export type TrainRequest = z.infer<typeof TrainRequest>

const Ok = z.object({ ok: z.literal(true) })

export const ReadyReply = Ok.extend({ event: z.literal('ready'), protocol: z.number() })
export const EstimateReply = Ok.extend({
  event: z.literal('estimate'),
  trainable: z.boolean(),
  /** Why not, when trainable is false (e.g. a quantised tensor). */
  reason: z.string(),
  nParams: z.number(),
  nTrainable: z.number(),
  nLayer: z.number(),
  contextSize: z.number(),
  estimatedBytes: z.number(),
  /** The CPU and GPU devices the trainer sees, with their memory (the estimate is compared with them). */
  devices: z.array(z.object({ name: z.string(), type: z.enum(['cpu', 'gpu']), freeBytes: z.number(), totalBytes: z.number() })),
})
export type TrainerEstimate = z.infer<typeof EstimateReply>

export const LoadReply = Ok.extend({
  event: z.literal('loaded'),
  arch: z.string(),
  nParams: z.number(),
  nTrainable: z.number(),
  nLayer: z.number(),
  nVocab: z.number(),
  contextSize: z.number(),
  estimatedBytes: z.number(),
  /** Bytes of the optimizer's state beside the weights (start weights, moments), on the weights' own devices. */
  optimizerStateBytes: z.number(),
  peakRssBytes: z.number(),
  /** Optimizer steps in the loaded state (0 when fresh). */
  optimizerSteps: z.number(),
  systemInfo: z.string(),
})
export type TrainerModelInfo = z.infer<typeof LoadReply>

export const TrainReply = Ok.extend({
  event: z.literal('trained'),
  /** pgObjective + klObjective at the weights before the step. */
  objective: z.number(),
  pgObjective: z.number(),
  klObjective: z.number(),
  /** Mean policy entropy (nats) at the positions with a policy-gradient weight. */
  entropy: z.number(),
  /** L2 norm of the batch gradient, before clipping. */
  gradNorm: z.number(),
  clipped: z.boolean(),
  stepNorm: z.number(),
  /** The share of the step kept by the KL guard: 1, halved per backtrack, 0 when undone. */
  stepScale: z.number(),
  backtracks: z.number(),
  /** KL(policy || base) on the probe after the step (null without a guard). */
  probeKl: z.number().nullable(),
  probeKlMax: z.number(),
  optimizerSteps: z.number(),
  totalOptimizerSteps: z.number(),
  sequences: z.number(),
  /** Training datapoints (graph evaluations of contextSize positions) the sequences were packed into. */
  datapoints: z.number(),
  weightedTokens: z.number(),
  /** Tokens of the sequences as they are; packedTokens after prefix sharing; tokensProcessed counts the graph's positions. */
  sequenceTokens: z.number(),
  packedTokens: z.number(),
  tokensProcessed: z.number(),
  forwardBackwardSeconds: z.number(),
  seconds: z.number(),
  /** CPU time of the trainer process over the update, all threads (a machine's load moves it far less than wall time). */
  cpuSeconds: z.number(),
  peakRssBytes: z.number(),
})
export type TrainResult = z.infer<typeof TrainReply>

export const LogprobsReply = Ok.extend({ event: z.literal('logprobs'), items: z.array(z.array(z.number())) })
export const KlReply = Ok.extend({ event: z.literal('kl'), mean: z.number(), max: z.number(), positions: z.number() })
export type KlResult = z.infer<typeof KlReply>
export const SaveReply = Ok.extend({ event: z.literal('saved'), path: z.string(), optimizerSteps: z.number() })
export const ErrorReply = z.object({ ok: z.literal(false), error: z.string() })
