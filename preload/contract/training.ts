/**
 * Training runs in the contract: the run's configuration (every choice a registry name or a number, so an
 * ablation of training is a config delta), the train.run job's parameters and result.
 */
import { z } from 'zod'
import { route } from './define'
import { QuestionRange } from './question-range'
import { MetricInfoSchema } from './metric-info'
import { PairedDifferenceSchema } from './paired'
import { ActionKindSchema, ProtocolNameSchema } from './protocols'
import { CreditQualityInput, CreditQualityReportSchema } from './credit-quality'

export const RewardConfigSchema = z.strictObject({
  /** Term name -> weight; terms left out weigh 0. */
  weights: z.record(z.string(), z.number()),
  normalisation: z.enum(['official', 'graphr1']).default('official'),
  /** Edits over the published Harness-1 weights, used when the harness1 term is weighted. */
  harness1Weights: z.record(z.string(), z.number()).default({}),
})

/** A training run's train or held-out questions. */
export type SplitSpec = QuestionRange

/**
 * The default training reward: supporting-fact F1 plus a bonus of 1 when every gold sentence is committed.
 * F1 alone taught the head to commit two sentences whatever the question (precision up, the all-gold
 * rate down from greedy's 0.32 to 0.25 on the demo world); the bonus keeps the second hop worth finding.
 */
export const DEFAULT_REWARD = { weights: { 'sp.f1': 1, 'sp.allGold': 1 }, normalisation: 'official' as const, harness1Weights: {} }
/** A fresh copy each time: defaults handed to callers must never share (and so mutate) one object. */
export const defaultReward = (): { weights: Record<string, number>; normalisation: 'official'; harness1Weights: Record<string, number> } => structuredClone(DEFAULT_REWARD)

/** AdamW's moment decays and epsilon for the GGUF trainer (PyTorch's defaults). */
export const GGUF_ADAMW = { beta1: 0.9, beta2: 0.999, eps: 1e-8 } as const

/**
 * The GGUF policy's own-weights training options (TrainConfig.gguf); parse({ modelPath }) gives the
 * defaults, which are the only defaults: the native trainer is sent every option and has none of its own.
 * Each update is one optimizer step on the token-mean loss of the whole step's batch (advantage-weighted
 * -log p of the sampled tokens plus klCoef * KL(policy || base) at the same positions).
 */
export const GgufTrainSchema = z.strictObject({
  modelPath: z.string().trim().min(1).max(4096),
  /**
   * SGD, 5e-4, no clipping: measured on the corrected trainer (bench:gguf-rl, stories260K, demo world, graph-menu,
   * 6 steps of 4 questions x 8 rollouts, seed 1): held-out reward 0.194 -> 0.386, +0.192 CI [0.043, 0.368],
   * KL 0.006 nats. AdamW at 1e-4 moved +0.024 [-0.012, 0.083] (KL 0.11) and at 3e-4 lost -0.139
   * [-0.337, 0.014] (KL 0.38: the policy learned to answer early). The sweep over G x Q x seeds is in README.
   */
  optimizer: z.enum(['adamw', 'sgd']).default('sgd'),
  /** The step size of each update (lowered for the rest of the run each time the KL guard backtracks). */
  learningRate: z.number().positive().max(1).default(0.0005),
  /** AdamW's decoupled weight decay (SGD: L2 shrinkage per step). */
  weightDecay: z.number().min(0).max(1).default(0),
  /** Weight of KL(policy || base) in the loss, per trained token (token-mean, as the policy-gradient term). */
  klCoef: z.number().min(0).max(10).default(0.05),
  /**
   * The per-step guard: after each update KL(policy || base) on held-out prompts is measured; above this
   * (nats) the step is halved, up to maxBacktracks times, then undone, and the learning rate is lowered to
   * the share kept. 0 turns the guard off.
   */
  klTarget: z.number().min(0).max(100).default(0.5),
  maxBacktracks: z.number().int().min(0).max(10).default(3),
  /**
   * Clip the update's gradient to this L2 norm (0: no clipping). Off by default: the token-mean gradient of
   * stories260K's menu decisions has norm 8-30, so a clip at 1 would shrink every SGD step 10-30 times; the KL
   * guard is the safeguard. With AdamW (scale-free) a clip of 1 is the usual choice.
   */
  maxGradNorm: z.number().min(0).default(0),
  /** Train output, output_norm and the last N blocks only (null: every tensor llama.cpp trains). */
  lastBlocks: z.number().int().min(0).nullable().default(null),
  /** Tokens per training sequence (prompt + sampled reply), rounded up to a multiple of 256; also the policy's context. */
  contextSize: z.number().int().min(64).max(32_768).default(512),
  /** Tool-calling environments: most tokens one call may take (a call cut there is a format error, and still trains). */
  maxTokens: z.number().int().min(8).max(4096).default(256),
  /** Optimizer steps per training step, each on the whole batch's loss at the current weights. */
  epochs: z.number().int().min(1).max(16).default(1),
  /** Layers offloaded to the GPU for training (-1: all, as llama.cpp advises; 0: CPU). */
  gpuLayers: z.number().int().min(-1).default(0),
  /**
   * A supervised warm start instead of RL: this scripted policy (oracle, greedy, scripted-tools) plays each
   * step's questions and the model learns its choices (next-token cross-entropy on the reply tokens, token
   * mean; no reward, no KL term or guard). null: RL. The run's final model is the warm-started policy.
   */
  teacher: z.string().trim().min(1).max(64).nullable().default(null),
  /**
   * Repeat the question at the end of every prompt, right before the reply: a small model (stories260K) copies a
   * question into its free query from a few tokens back, not from the top of a 1,000-token prompt.
   */
  restateQuestion: z.boolean().default(false),
  /**
   * Free query: decode each query as words of the observation (the question and what is visible) joined by
   * spaces, not any characters; a teacher's query is imitated as its words the observation has. For a model
   * too small to copy unseen names: it chooses the words, the grammar spells them. Queries are then no longer free text.
   */
  extractiveQueries: z.boolean().default(false),
})
export type GgufTrainConfig = z.infer<typeof GgufTrainSchema>

/**
 * The head's supervised warm start (behaviour cloning) before RL: this scripted policy (oracle, greedy,
 * scripted-tools: one that speaks the environment's protocol) plays each train question once, and the head
 * learns its choices among its own candidates by minibatch cross-entropy, with its own Adam, before the
 * first RL step. Left out of a new run's config, the environment's default applies (main/policy/protocols.ts).
 */
export const HeadWarmStartSchema = z.strictObject({
  teacher: z.string().trim().min(1).max(64),
  /** Passes over the teacher's decisions. */
  epochs: z.number().int().min(1).max(500).default(30),
  learningRate: z.number().positive().max(1).default(0.01),
  batchSize: z.number().int().min(1).max(4096).default(32),
  /** Most train questions the teacher plays (the first ones of the split's order); 0: all of them. */
  questions: z.number().int().min(0).max(100_000).default(0),
  /**
   * DAgger rounds after the teacher's own pass: the head plays each train question (sampling) and the teacher
   * (without look-ahead: its rules) labels the states the head reaches; the head is refitted on every label so far.
   */
  rounds: z.number().int().min(0).max(20).default(0),
  /**
   * RL's learning rate after the warm start, in place of `learningRate` (tuned from a random head): Adam's first
   * steps move every weight by about the learning rate, which at 0.02 undid the fitted head within a step
   * (README "Warm start of the head").
   */
  rlLearningRate: z.number().positive().max(1).default(0.002),
})
export type HeadWarmStart = z.infer<typeof HeadWarmStartSchema>

/** No default here: the scheme left open is the environment's protocol's (PROTOCOL_TRAINING_DEFAULTS), resolved with the run. */
const CreditConfigSchema = z.strictObject({ scheme: z.string().min(1), lambda: z.number().min(0).max(10).default(0.5) })

export const TrainConfigSchema = z.strictObject({
  name: z.string().trim().max(200).default(''),
  environment: z.string().min(1).max(64),
  envConfig: z.record(z.string(), z.unknown()).default({}),
  head: z.strictObject({ arch: z.enum(['linear', 'mlp']).default('mlp'), hidden: z.number().int().min(1).max(512).default(32) }).default({ arch: 'mlp', hidden: 32 }),
  reward: RewardConfigSchema.default(defaultReward),
  /** Credit and estimator have no default of their own: a request that leaves them out gets its protocol's (PROTOCOL_TRAINING_DEFAULTS). */
  credit: CreditConfigSchema,
  estimator: z.string().min(1),
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
  /**
   * 0.02. Sweep history (graph-menu + SNC, demo world size 6, G = 8 x 16, seed 1): at 20 steps 0.01 was too
   * slow (held-out SP F1 0.340), 0.05 best (0.365) and 0.1 collapsed onto six sentences per episode (0.283).
   * At 60 steps 0.05 let the policy peak and then fall back (training reward 0.71 at step 30, 0.34 at
   * 59; held-out 0.321); 0.02 kept rising (0.379 with F1 alone, 0.424 with the all-gold bonus).
   */
  learningRate: z.number().positive().max(1).default(0.02),
  /** Optimiser passes over each batch: the ratio terms of PPO-clip / CISPO only act from the second on. */
  substeps: z.number().int().min(1).max(16).default(2),
  /**
   * On by default: without it the zero-advantage rate climbs as the policy collapses onto one path.
   * 0.15 (60 steps, lr 0.02, F1 + all-gold reward, seed 1): at 0.05 HotpotQA-train100's 75 train questions
   * collapsed the policy within 15 steps (entropy 2.8 -> 0.27 nats, zero-advantage rate 0.6-0.8, held-out
   * SP F1 0.553 vs greedy 0.551) and the demo world lost all-gold rate (0.27 vs greedy 0.32); at 0.15
   * entropy stayed near 1.3 (HotpotQA) and 2.0 (demo), the zero-advantage rate near 0.13, and held-out
   * SP F1 reached 0.601 (HotpotQA) and 0.427 (demo) with the all-gold rate above greedy's on both.
   */
  entropyCoef: z.number().min(0).max(1).default(0.15),
  /**
   * The entropy bonus also covers the decisions of dropped zero-variance groups: those are the states where
   * the policy has already become deterministic, which a bonus on the kept groups alone never reaches. On
   * its own it did not stop the HotpotQA collapse at coefficient 0.05 (entropy 0.27 nats by step 15); the
   * coefficient above did.
   */
  entropyOnDropped: z.boolean().default(true),
  temperature: z.number().positive().max(10).default(1),
  /**
   * A frozen GGUF model as the head's prior (graph-menu): softmax(beta · log p_LLM(id) + head(features)).
   * The model's own weights never change in the app; beta and the head train on the CPU.
   */
  prior: z.strictObject({ modelPath: z.string().trim().min(1).max(4096) }).nullable().default(null),
  /**
   * Train the GGUF model's own weights instead of a head: G sampled rollouts of the model acting in the
   * environment's protocol (menu ids, Harness-1 tool calls, free queries), then one advantage-weighted
   * update of -log p(sampled tokens | prompt) through the native trainer (README "Training the GGUF
   * policy"). The model must be F32.
   */
  gguf: GgufTrainSchema.nullable().default(null),
  /** The head's supervised warm start before RL (HeadWarmStartSchema); null: RL from the random init. */
  warmStart: HeadWarmStartSchema.nullable().default(null),
  gradClip: z.number().positive().default(1),
  seed: z.number().int().min(0).max(2 ** 31 - 1).default(1),
  /** Evaluate the greedy head on the held-out split every N steps (and before the first and after the last). */
  evalInterval: z.number().int().min(1).default(10),
  train: QuestionRange,
  heldOut: QuestionRange,
})
export type TrainConfig = z.infer<typeof TrainConfigSchema>
export type TrainConfigInput = z.input<typeof TrainConfigSchema>

/** The answerer a training run scores its rollouts with. */
export const TrainAnswererSpec = z.discriminatedUnion('kind', [z.strictObject({ kind: z.literal('lexical') }), z.strictObject({ kind: z.literal('gguf'), modelPath: z.string().trim().min(1).max(4096) })])
export type TrainAnswererSpec = z.infer<typeof TrainAnswererSpec>

/**
 * A training run as asked for: a reward left out is the preset for the train questions' gold level; credit
 * and estimator left out are the environment's protocol's (PROTOCOL_TRAINING_DEFAULTS). Resolving it
 * (main/experiments/training/resolve-config.ts) gives a TrainConfig.
 */
export const TrainConfigRequestSchema = TrainConfigSchema.extend({ reward: RewardConfigSchema.optional(), credit: CreditConfigSchema.optional(), estimator: z.string().min(1).optional(), warmStart: HeadWarmStartSchema.nullable().optional() })
export type TrainConfigRequest = z.infer<typeof TrainConfigRequestSchema>
export type TrainConfigRequestInput = z.input<typeof TrainConfigRequestSchema>

export const TrainParams = z.discriminatedUnion('mode', [
  /** The train.run preflight stores the config resolved (its reward chosen): the worker runs what was checked. */
  z.strictObject({ mode: z.literal('new'), config: TrainConfigRequestSchema, answerer: TrainAnswererSpec.default({ kind: 'lexical' }) }),
  /** Continue a cancelled, failed or interrupted run from its last completed step. */
  z.strictObject({ mode: z.literal('resume'), runId: z.number().int().min(1) }),
])
export type TrainParams = z.infer<typeof TrainParams>

/** before / after: the held-out headline metric (`metric`, the run's reward's leading term's) of the greedy head. */
export const TrainResult = z.object({ runId: z.number(), steps: z.number(), before: z.number().nullable(), after: z.number().nullable(), metric: z.string().default('sp.f1') })

// ── Routes: the training catalogue, saved configs, training runs ─────────────────────────────────

const WorkspaceId = z.string().min(1).max(64)
const RunId = z.number().int().min(1)

/**
 * A saved (named) training config: the whole TrainConfig minus the splits. Reward, credit, estimator,
 * loss and optimiser are set once on the Rewards page; the question set and the train / held-out ranges
 * are chosen each time a run is launched from it.
 */
export const SavedTrainConfigSchema = TrainConfigSchema.omit({ train: true, heldOut: true })
export type SavedTrainConfig = z.infer<typeof SavedTrainConfigSchema>
export type SavedTrainConfigInput = z.input<typeof SavedTrainConfigSchema>
/** A config as it is saved: credit and estimator left out are the environment's protocol's (PROTOCOL_TRAINING_DEFAULTS), stored resolved. */
export const SavedTrainConfigRequestSchema = SavedTrainConfigSchema.extend({ credit: CreditConfigSchema.optional(), estimator: z.string().min(1).optional() })
export type SavedTrainConfigRequest = z.infer<typeof SavedTrainConfigRequestSchema>

export const ConfigName = z.string().trim().min(1, 'give the config a name').max(100, 'at most 100 characters')

export const SavedTrainConfigRow = z.object({
  name: z.string(),
  /** null when the stored config no longer validates (written by another version); `problem` says why. */
  config: SavedTrainConfigSchema.nullable(),
  problem: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type SavedTrainConfigRow = z.infer<typeof SavedTrainConfigRow>

const LossParam = z.enum(['clipEps', 'dualClip', 'cispoLow', 'cispoHigh'])
export type LossParam = z.infer<typeof LossParam>


export const TrainingCatalogSchema = z.object({
  /** Every registered reward term; `defaultWeight` is its weight in the default config (terms left out weigh 0). */
  rewardTerms: z.array(z.object({ name: z.string(), label: z.string(), description: z.string(), warning: z.string().nullable(), defaultWeight: z.number() })),
  normalisations: z.array(z.object({ name: z.enum(['official', 'graphr1']), label: z.string() })),
  rewardPresets: z.array(z.object({ name: z.string(), label: z.string(), reward: RewardConfigSchema })),
  /** Harness-1's reward weights with the published defaults, editable when the harness1 term is weighted. */
  harness1Weights: z.array(z.object({ name: z.string(), label: z.string(), description: z.string(), published: z.number(), integer: z.boolean(), min: z.number().nullable() })),
  credit: z.array(z.object({ name: z.string(), label: z.string(), description: z.string(), needsPreviews: z.boolean(), usesLambda: z.boolean() })),
  estimators: z.array(z.object({ name: z.string(), label: z.string(), description: z.string() })),
  /** Each loss with the clip options it reads, and their defaults (null: off). */
  losses: z.array(
    z.object({
      name: z.string(),
      label: z.string(),
      description: z.string(),
      /** Bounds from the loss's declaration; with `minExclusive` the value must exceed `min`. */
      params: z.array(z.object({ key: LossParam, label: z.string(), description: z.string(), default: z.number().nullable(), nullable: z.boolean(), min: z.number().nullable(), minExclusive: z.boolean(), max: z.number().nullable() })),
    }),
  ),
  /** The TrainConfig defaults (minus the splits). */
  defaults: SavedTrainConfigSchema,
  /** Every registered environment, whether the policy head drives its protocol, and the head's default warm start there (null: none). */
  environments: z.array(
    z.object({ name: z.string(), description: z.string(), family: z.string(), actionKind: ActionKindSchema, protocol: ProtocolNameSchema, headDriven: z.boolean(), warmStart: HeadWarmStartSchema.nullable() }),
  ),
  headProtocols: z.array(ProtocolNameSchema),
  /** Descriptions of the training diagnostics and held-out metrics the metric catalogue does not list (labels, units). */
  metrics: z.array(MetricInfoSchema),
})
export type TrainingCatalog = z.infer<typeof TrainingCatalogSchema>

const Aggregate = z.object({ mean: z.number().nullable(), count: z.number(), lower: z.number().nullable(), upper: z.number().nullable() })

export const TrainingRunSummary = z.object({
  id: z.number(),
  name: z.string(),
  /** running, done, failed, cancelled (a run whose job ended without finishing it shows the job's status). */
  status: z.string(),
  error: z.string().nullable(),
  /** The job that ran it last (a resume replaces it). */
  jobId: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  environment: z.string(),
  credit: z.string(),
  stepsDone: z.number(),
  steps: z.number(),
  lastReward: z.number().nullable(),
  /** What the run trains: the policy head, or a GGUF model's own weights (evaluated as policy {kind: 'gguf-run'}). */
  learner: z.enum(['head', 'gguf']).default('head'),
  /** The last completed step (its checkpoint is the trained policy's default step); null before the first. */
  lastStep: z.number().nullable().default(null),
  /** The run's headline held-out metric of the greedy head before training and after it (null until evaluated). */
  heldOutBefore: z.number().nullable(),
  heldOutAfter: z.number().nullable(),
  /** The metric the run is judged by: its reward's leading term's (paragraph.f1 on paragraph gold, sp.f1 on sentence gold); labels from the metric catalogue. */
  headlineMetric: z.string(),
  /** The gold level that metric reads. */
  goldLevel: z.enum(['sentence', 'paragraph', 'answer']),
  answererName: z.string(),
  /** The answerer is the lexical stand-in, not a GGUF model. */
  lexicalAnswerer: z.boolean(),
})
export type TrainingRunSummary = z.infer<typeof TrainingRunSummary>

/** What the head's warm start did (step 0 of a warm-started run): the teacher's decisions learned and how well the head agrees with them. */
export const WarmStartReportSchema = z.object({
  teacher: z.string(),
  /** Train questions the teacher played, and the DAgger rounds after its pass. */
  questions: z.number(),
  rounds: z.number(),
  /** Teacher decisions, those the head's candidates did not offer, and the samples learned (more than one candidate). */
  decisions: z.number(),
  unmatched: z.number(),
  samples: z.number(),
  epochs: z.number(),
  /** Cross-entropy (nats) after each pass of the last fit, and argmax agreement with the teacher on every label before and after it. */
  epochLoss: z.array(z.number()),
  finalLoss: z.number(),
  agreementBefore: z.number(),
  agreementAfter: z.number(),
})
export type WarmStartReport = z.infer<typeof WarmStartReportSchema>

export const TrainStepDiagnostics = z.object({
  step: z.number(),
  reward: z.number(),
  components: z.record(z.string(), z.number()),
  advantageMean: z.number(),
  advantageStd: z.number(),
  zeroAdvantageRate: z.number(),
  allCorrectRate: z.number(),
  allWrongRate: z.number(),
  /** N_eq: mean retrieval-equivalence classes per group. */
  equivalenceClasses: z.number(),
  /** D_ret: share of groups spanning more than one class. */
  spanningGroups: z.number(),
  /** D_query: query-string diversity (free query only). */
  queryDiversity: z.number().nullable(),
  actionMix: z.record(z.string(), z.number()),
  turns: z.number(),
  evidence: z.number(),
  loss: z.number(),
  /** null where the run did not measure it (GGUF runs before the trainer reported it): never drawn as zero. */
  gradNorm: z.number().nullable(),
  entropy: z.number().nullable(),
  clippedFraction: z.number(),
  keptGroups: z.number(),
  creditScale: z.number(),
  seconds: z.number(),
  /** The part of `seconds` the step's held-out pass took (null: no pass at this step, or not measured): the run page's time left splits it off. */
  heldOutSeconds: z.number().nullable(),
  /** Held-out metric means of the greedy head, at evaluation steps (evaluated before the step's update). */
  heldOut: z.record(z.string(), z.number().nullable()).nullable(),
  rollouts: z.number(),
  /** GGUF runs (null for the head): KL(policy || base) on held-out prompts, its warning, update cost. */
  klToBase: z.number().nullable(),
  /** The KL guard's word on this step (halved or undone, the learning rate now), shown as the step arrives. */
  klWarning: z.string().nullable(),
  tokensTrained: z.number().nullable(),
  secondsPerUpdate: z.number().nullable(),
  /** GGUF runs: the learning rate the step used (the guard lowers it) and the share of the step it kept. */
  learningRate: z.number().nullable(),
  stepScale: z.number().nullable(),
  /** Step 0 of a head run with a warm start: what the warm start did (null on every other step). */
  warmStart: WarmStartReportSchema.nullable(),
})
export type TrainStepDiagnostics = z.infer<typeof TrainStepDiagnostics>

const HeldOutSide = z.object({
  /** 'before training' (step 0), 'after training' (the final evaluation), or 'step N' (the latest evaluation of an unfinished run). */
  at: z.string(),
  questions: z.number(),
  metrics: z.record(z.string(), Aggregate),
})

export const HeldOutComparisonRow = PairedDifferenceSchema.extend({
  metric: z.string(),
  beforeMean: z.number().nullable(),
  afterMean: z.number().nullable(),
})

export const TrainingRunDetail = z.object({
  run: TrainingRunSummary,
  config: TrainConfigSchema,
  steps: z.array(TrainStepDiagnostics),
  heldOut: z.object({
    before: HeldOutSide.nullable(),
    after: HeldOutSide.nullable(),
    /** Paired by question (after − before), bootstrap CI of the mean difference. */
    comparison: z.array(HeldOutComparisonRow),
  }),
  bytesPerRollout: z.number(),
})
export type TrainingRunDetail = z.infer<typeof TrainingRunDetail>

export const TrainingRollout = z.object({
  id: z.number(),
  questionId: z.number().nullable(),
  question: z.string(),
  answer: z.string().nullable(),
  turns: z.number(),
  reward: z.number().nullable(),
  metrics: z.record(z.string(), z.number().nullable()),
})

/** A head weights file (README "Head weights file"): the head's checkpoint with the feature layout it reads, by version. */
export const HeadWeightsFileSchema = z.object({
  format: z.literal('harness-lab.head-weights'),
  version: z.literal(1),
  protocol: z.string(),
  environment: z.string(),
  layout: z.object({ version: z.string(), inputs: z.array(z.string()) }),
  head: z.record(z.string(), z.unknown()),
  source: z.record(z.string(), z.unknown()),
})

/** Whether GGUF weights can train here: the native trainer built (or found) for the CPU, else why not in words. */
export const GgufTrainerStatus = z.object({ available: z.boolean(), reason: z.string().nullable() })
export type GgufTrainerStatus = z.infer<typeof GgufTrainerStatus>

/** A GGUF run's costs on this machine, measured by the steps of an earlier run (common/run-time.ts sizes a shape from them). */
export const GgufRatesSchema = z.object({
  secondsPerRollout: z.number(),
  decisionsPerRollout: z.number(),
  updateSecondsPerDecision: z.number(),
  heldOutSecondsPerQuestion: z.number(),
  stepOverheadSeconds: z.number(),
})

export const trainingRoutes = {
  'training.ggufTrainer': route(
    "Whether the native GGUF trainer can run here (built with the system C++ compiler on first ask, then cached), and why not when it cannot",
    z.object({}).strict(),
    GgufTrainerStatus,
  ),
  'training.catalog': route(
    'What a training config can name: reward terms (label, description, warning), presets, Harness-1 weights with published defaults, credit schemes, estimators, losses with their clip options, the defaults, and the environments the policy head drives',
    z.object({}).strict(),
    TrainingCatalogSchema,
  ),
  'training.configs.list': route('Saved training configs of the workspace, by name', z.object({ workspaceId: WorkspaceId }).strict(), z.array(SavedTrainConfigRow)),
  'training.configs.save': route(
    "Save a named training config (the TrainConfig minus the splits; credit and estimator left out are the environment's protocol's; registry names, reward and loss options checked); an existing name is replaced",
    z.object({ workspaceId: WorkspaceId, name: ConfigName, config: SavedTrainConfigRequestSchema }).strict(),
    SavedTrainConfigRow,
  ),
  'training.configs.delete': route('Delete a saved training config', z.object({ workspaceId: WorkspaceId, name: ConfigName }).strict(), z.object({ deleted: z.string() })),
  'training.runs': route('Training runs of the workspace, newest first, with status and key figures', z.object({ workspaceId: WorkspaceId }).strict(), z.array(TrainingRunSummary)),
  'training.run': route(
    "One training run: its config, status, per-step diagnostics, held-out aggregates before and after with CIs, and a paired before/after comparison",
    z.object({ workspaceId: WorkspaceId, runId: RunId }).strict(),
    TrainingRunDetail,
  ),
  'training.exportHead': route(
    "A training run's head at a completed step (default the last) as a head weights file; evaluate it with policy {kind: 'head-file', path}",
    z.object({ workspaceId: WorkspaceId, runId: RunId, step: z.number().int().min(0).optional() }).strict(),
    HeadWeightsFileSchema,
  ),
  'training.rollouts': route(
    'The rollouts of one training step (open any of them with runs.episode)',
    z.object({ workspaceId: WorkspaceId, runId: RunId, step: z.number().int().min(0), offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(1000).default(200) }).strict(),
    z.object({ total: z.number(), rollouts: z.array(TrainingRollout) }),
  ),
  'training.ggufRates': route(
    "What a GGUF run of this model, environment and context costs on this machine, from the newest run of the three that finished a step (null when none has: a one-step speed check measures them)",
    z.object({ workspaceId: WorkspaceId, modelPath: z.string().trim().min(1).max(4096), environment: z.string().min(1).max(64), contextSize: z.number().int().min(1).max(32_768) }).strict(),
    z.object({ rates: GgufRatesSchema, runId: z.number(), runName: z.string() }).nullable(),
  ),
  'training.creditQuality': route(
    "How well each credit scheme's per-step signal ranks the gold-path steps of a graph-menu run's stored rollouts (steps fromStep..toStep, re-credited by every scheme with an offline stand-in scorer): AUC with a bootstrap CI over questions, group variance, zero-advantage share, by question type and hops",
    CreditQualityInput,
    CreditQualityReportSchema,
  ),
}
