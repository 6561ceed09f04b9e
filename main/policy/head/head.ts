/**
 * Trainable policy head over a variable-size action set (README, Training).
 *
 *   logits_i = beta * prior_i + score(x_i)        (beta * prior only when a prior is given)
 *   logp_i   = log softmax(logits / T)_i
 *
 * Gradient convention: `accumulate(cache, chosen, g, entropyCoef)` ADDS dL/dtheta into a gradient
 * buffer for the per-state objective
 *
 *   L = g * logp(chosen) - entropyCoef * H(pi),
 *
 * so a minimising optimiser (Adam.step) descends L. With g = dLoss/dlogpNew from a policy-gradient
 * loss (e.g. -A / N for REINFORCE) and entropyCoef > 0 this is "loss minus entropy bonus".
 * Parameters live in one flat Float64Array; `segments` names its blocks, beta last.
 */
import { z } from 'zod'
import { seededRandom } from '../../eval'
import { linearScorer, mlpScorer, type Activation, type HeadConfig, type Scorer, type ScorerFactory } from './scorers'
import { assertTemperature, entropy as entropyOf, logSoftmax } from './softmax'

/** Feature rows, one per available action, each of length inputDim. */
export type FeatureRows = readonly ArrayLike<number>[]

export interface HeadOptions {
  inputDim: number
  /** mlp hidden width; 32 by default. */
  hidden?: number
  /** mlp activation; tanh by default. */
  activation?: Activation
  seed: number
  /** Default softmax temperature; 1 by default. */
  temperature?: number
  /** Initial prior weight beta; 1 by default. */
  initialBeta?: number
}

export interface ParamSegment {
  name: string
  offset: number
  length: number
  shape: readonly number[]
  decay: boolean
}

/** Everything the backward pass needs from one forward pass. Treat as read-only. */
export interface HeadCache {
  readonly n: number
  readonly temperature: number
  /** Copy of the feature rows (row-major n x D), so later mutation by the caller cannot skew backprop. */
  readonly x: Float64Array
  readonly prior: Float64Array | null
  readonly logp: Float64Array
  readonly probs: Float64Array
  readonly entropy: number
  readonly scorer: unknown
}

export interface HeadOutput {
  /** beta * prior + score, before the temperature. */
  logits: Float64Array
  logp: Float64Array
  probs: Float64Array
  /** H(pi) in nats, of the tempered distribution. */
  entropy: number
  cache: HeadCache
}

export interface ForwardOptions {
  /** Overrides the head's default temperature for this call. */
  temperature?: number
}

export const HEAD_CHECKPOINT_FORMAT = 'harness-lab/policy-head'

const headConfigSchema = z.strictObject({
  inputDim: z.number().int().positive(),
  hidden: z.number().int().positive(),
  activation: z.enum(['tanh', 'relu']),
  seed: z.number().int(),
  temperature: z.number().positive(),
  initialBeta: z.number(),
})

export const headCheckpointSchema = z.strictObject({
  format: z.literal(HEAD_CHECKPOINT_FORMAT),
  version: z.literal(1),
  head: z.string().min(1),
  config: headConfigSchema,
  params: z.array(z.number()),
})

/**
 * Plain JSON. Finite doubles survive JSON.stringify/parse exactly (JavaScript prints the shortest
 * round-tripping decimal); only -0 becomes 0, which cannot change any later sum or product here.
 */
export type HeadCheckpoint = z.infer<typeof headCheckpointSchema>

const factories = new Map<string, ScorerFactory>()

/** Register an architecture by name. Re-registering the same factory is a no-op; a different one throws. */
export const registerHead = (name: string, factory: ScorerFactory): void => {
  const existing = factories.get(name)
  if (existing !== undefined && existing !== factory) throw new Error(`policy head "${name}" is already registered`)
  factories.set(name, factory)
}

export const headNames = (): string[] => [...factories.keys()]

registerHead('linear', linearScorer)
registerHead('mlp', mlpScorer)

export const resolveHeadConfig = (options: HeadOptions): HeadConfig =>
  headConfigSchema.parse({
    inputDim: options.inputDim,
    hidden: options.hidden ?? 32,
    activation: options.activation ?? 'tanh',
    seed: options.seed,
    temperature: options.temperature ?? 1,
    initialBeta: options.initialBeta ?? 1,
  })

export class PolicyHead {
  readonly params: Float64Array
  /** Default gradient buffer used by accumulate; clear it with zeroGrad(). */
  readonly grad: Float64Array
  readonly segments: readonly ParamSegment[]
  private readonly scorer: Scorer
  private readonly scorerLength: number
  private readonly betaIndex: number

  constructor(
    readonly name: string,
    readonly config: HeadConfig,
    factory: ScorerFactory,
  ) {
    this.scorer = factory(config)
    const segments: ParamSegment[] = []
    let offset = 0
    for (const block of this.scorer.blocks) {
      const length = block.shape.reduce((a, b) => a * b, 1)
      segments.push({ name: block.name, offset, length, shape: block.shape, decay: block.decay })
      offset += length
    }
    if (segments.some((s) => s.name === 'beta')) throw new Error(`policy head "${name}" must not define its own "beta" block`)
    this.scorerLength = offset
    this.betaIndex = offset
    segments.push({ name: 'beta', offset, length: 1, shape: [1], decay: false })
    this.segments = segments
    this.params = new Float64Array(offset + 1)
    this.grad = new Float64Array(offset + 1)
    this.scorer.init(this.params.subarray(0, offset), seededRandom(config.seed))
    this.params[this.betaIndex] = config.initialBeta
  }

  get size(): number {
    return this.params.length
  }

  get beta(): number {
    return this.params[this.betaIndex]!
  }

  /** View of one named block of the parameters (writes go through). */
  segment(name: string): Float64Array {
    const s = this.segments.find((seg) => seg.name === name)
    if (s === undefined) throw new Error(`policy head "${this.name}" has no parameter block "${name}"`)
    return this.params.subarray(s.offset, s.offset + s.length)
  }

  /** 1 for weight matrices, 0 for biases and beta: the usual weight-decay mask, to pass to Adam. */
  weightDecayMask(): Uint8Array {
    const mask = new Uint8Array(this.size)
    for (const s of this.segments) if (s.decay) mask.fill(1, s.offset, s.offset + s.length)
    return mask
  }

  forward(rows: FeatureRows, prior?: ArrayLike<number>, options: ForwardOptions = {}): HeadOutput {
    const temperature = options.temperature ?? this.config.temperature
    assertTemperature(temperature)
    const n = rows.length
    if (n === 0) throw new RangeError('the action set is empty')
    const d = this.config.inputDim
    const x = new Float64Array(n * d)
    for (let i = 0; i < n; i++) {
      const row = rows[i]!
      if (row.length !== d) throw new RangeError(`action ${i} has ${row.length} features, expected ${d}`)
      for (let k = 0; k < d; k++) {
        const v = row[k]!
        if (!Number.isFinite(v)) throw new RangeError(`action ${i} feature ${k} is not finite (${v})`)
        x[i * d + k] = v
      }
    }
    let priorCopy: Float64Array | null = null
    if (prior !== undefined) {
      if (prior.length !== n) throw new RangeError(`prior has ${prior.length} entries for ${n} actions`)
      priorCopy = Float64Array.from(prior)
      // -Infinity would make beta's gradient 0 * -Infinity = NaN; callers floor impossible items instead.
      for (let i = 0; i < n; i++) if (!Number.isFinite(priorCopy[i]!)) throw new RangeError(`prior ${i} is not finite (${priorCopy[i]})`)
    }
    const logits = new Float64Array(n)
    const scorerCache = this.scorer.score(this.params.subarray(0, this.scorerLength), x, n, logits)
    if (priorCopy !== null) {
      const beta = this.beta
      for (let i = 0; i < n; i++) logits[i] = logits[i]! + beta * priorCopy[i]!
    }
    const logp = logSoftmax(logits, temperature)
    const probs = logp.map(Math.exp)
    const entropy = entropyOf(logp)
    return { logits, logp, probs, entropy, cache: { n, temperature, x, prior: priorCopy, logp, probs, entropy, scorer: scorerCache } }
  }

  /**
   * Add dL/dtheta for L = dLdLogp * logp(chosen) - entropyCoef * H(pi) into `grad`. With a = logits / T:
   *   dL/da_j = dLdLogp * ([j = chosen] - pi_j) + entropyCoef * pi_j * (logp_j + H)
   * then dL/dlogits = dL/da / T, into the scorer's backward pass and, with a prior, into beta.
   * For a loss averaged over N states pass entropyCoef / N to average the bonus too.
   */
  accumulate(cache: HeadCache, chosen: number, dLdLogp: number, entropyCoef = 0, grad: Float64Array = this.grad): void {
    const { n, temperature, logp, probs, entropy: h } = cache
    if (!(Number.isInteger(chosen) && chosen >= 0 && chosen < n)) throw new RangeError(`chosen must be an action index in [0, ${n}), got ${chosen}`)
    if (!Number.isFinite(dLdLogp) || !Number.isFinite(entropyCoef)) throw new RangeError('dLdLogp and entropyCoef must be finite')
    if (grad.length !== this.size) throw new RangeError(`gradient buffer has ${grad.length} entries, expected ${this.size}`)
    const dLogits = new Float64Array(n)
    for (let j = 0; j < n; j++) {
      const p = probs[j]!
      const da = dLdLogp * ((j === chosen ? 1 : 0) - p) + entropyCoef * p * (logp[j]! + h)
      dLogits[j] = da / temperature
    }
    this.scorer.backward(this.params.subarray(0, this.scorerLength), cache.x, n, cache.scorer, dLogits, grad.subarray(0, this.scorerLength))
    if (cache.prior !== null) {
      let dBeta = 0
      for (let j = 0; j < n; j++) dBeta += cache.prior[j]! * dLogits[j]!
      grad[this.betaIndex] = grad[this.betaIndex]! + dBeta
    }
  }

  zeroGrad(): void {
    this.grad.fill(0)
  }

  checkpoint(): HeadCheckpoint {
    return { format: HEAD_CHECKPOINT_FORMAT, version: 1, head: this.name, config: { ...this.config }, params: Array.from(this.params) }
  }

  /** Overwrite every parameter (e.g. from a checkpoint); the length must match the layout. */
  loadParams(values: ArrayLike<number>): void {
    if (values.length !== this.size) throw new RangeError(`expected ${this.size} parameters, got ${values.length}`)
    for (let i = 0; i < values.length; i++) if (!Number.isFinite(values[i]!)) throw new RangeError(`parameter ${i} is not finite`)
    this.params.set(values)
  }
}

export const createHead = (name: string, options: HeadOptions): PolicyHead => {
  const factory = factories.get(name)
  if (factory === undefined) throw new Error(`unknown policy head "${name}" (known: ${headNames().join(', ')})`)
  return new PolicyHead(name, resolveHeadConfig(options), factory)
}

/** Rebuild a head from a checkpoint (JSON object or its string form). */
export const restoreHead = (checkpoint: unknown): PolicyHead => {
  const parsed = headCheckpointSchema.parse(typeof checkpoint === 'string' ? JSON.parse(checkpoint) : checkpoint)
  const head = createHead(parsed.head, parsed.config)
  head.loadParams(parsed.params)
  return head
}
