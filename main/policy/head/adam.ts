/**
 * Adam with bias correction and optional decoupled (AdamW-style) weight decay, plus global-norm
 * gradient clipping. The whole optimiser state is plain JSON so a run can checkpoint and resume with
 * bit-identical updates.
 */
import { z } from 'zod'

export interface AdamOptions {
  lr: number
  beta1?: number
  beta2?: number
  eps?: number
  /** Decoupled weight decay: p <- p * (1 - lr * weightDecay) before the Adam step, as AdamW does. 0 by default. */
  weightDecay?: number
  /** 1 where weight decay applies (e.g. PolicyHead.weightDecayMask()); every parameter when absent. */
  decayMask?: ArrayLike<number>
}

export const ADAM_STATE_FORMAT = 'harness-lab/adam'

export const adamStateSchema = z.strictObject({
  format: z.literal(ADAM_STATE_FORMAT),
  version: z.literal(1),
  lr: z.number().positive(),
  beta1: z.number().min(0).lt(1),
  beta2: z.number().min(0).lt(1),
  eps: z.number().positive(),
  weightDecay: z.number().min(0),
  decayMask: z.array(z.union([z.literal(0), z.literal(1)])).nullable(),
  step: z.number().int().min(0),
  m: z.array(z.number()),
  v: z.array(z.number()),
})

export type AdamState = z.infer<typeof adamStateSchema>

export class Adam {
  /** Mutable so a schedule can change it between steps; it is part of the saved state. */
  lr: number
  readonly beta1: number
  readonly beta2: number
  readonly eps: number
  readonly weightDecay: number
  private readonly decayMask: Uint8Array | null
  private readonly m: Float64Array
  private readonly v: Float64Array
  private t = 0

  constructor(
    readonly size: number,
    options: AdamOptions,
  ) {
    const parsed = adamStateSchema.shape
    if (!(Number.isInteger(size) && size >= 0)) throw new RangeError(`size must be a non-negative integer, got ${size}`)
    this.lr = parsed.lr.parse(options.lr)
    this.beta1 = parsed.beta1.parse(options.beta1 ?? 0.9)
    this.beta2 = parsed.beta2.parse(options.beta2 ?? 0.999)
    this.eps = parsed.eps.parse(options.eps ?? 1e-8)
    this.weightDecay = parsed.weightDecay.parse(options.weightDecay ?? 0)
    if (options.decayMask !== undefined) {
      if (options.decayMask.length !== size) throw new RangeError(`decayMask has ${options.decayMask.length} entries, expected ${size}`)
      this.decayMask = Uint8Array.from(options.decayMask, (x) => (x ? 1 : 0))
    } else this.decayMask = null
    this.m = new Float64Array(size)
    this.v = new Float64Array(size)
  }

  /** Number of steps taken so far. */
  get stepCount(): number {
    return this.t
  }

  /**
   * One update in place. Throws before touching any state when a gradient is not finite, so a bad
   * batch cannot poison the moments or the parameters.
   */
  step(params: Float64Array, grad: ArrayLike<number>): void {
    if (params.length !== this.size || grad.length !== this.size) throw new RangeError(`expected ${this.size} parameters and gradients, got ${params.length} and ${grad.length}`)
    for (let i = 0; i < this.size; i++) if (!Number.isFinite(grad[i]!)) throw new RangeError(`gradient ${i} is not finite (${grad[i]})`)
    this.t += 1
    const { beta1, beta2, eps, lr } = this
    const bc1 = 1 - beta1 ** this.t
    const bc2 = 1 - beta2 ** this.t
    const decay = lr * this.weightDecay
    for (let i = 0; i < this.size; i++) {
      const g = grad[i]!
      const m = beta1 * this.m[i]! + (1 - beta1) * g
      const v = beta2 * this.v[i]! + (1 - beta2) * g * g
      this.m[i] = m
      this.v[i] = v
      let p = params[i]!
      if (decay !== 0 && (this.decayMask === null || this.decayMask[i] === 1)) p *= 1 - decay
      params[i] = p - (lr * (m / bc1)) / (Math.sqrt(v / bc2) + eps)
    }
  }

  state(): AdamState {
    return {
      format: ADAM_STATE_FORMAT,
      version: 1,
      lr: this.lr,
      beta1: this.beta1,
      beta2: this.beta2,
      eps: this.eps,
      weightDecay: this.weightDecay,
      decayMask: this.decayMask === null ? null : (Array.from(this.decayMask) as (0 | 1)[]),
      step: this.t,
      m: Array.from(this.m),
      v: Array.from(this.v),
    }
  }

  /** Rebuild from state() output (object or JSON string); the next step is bit-identical. */
  static restore(state: unknown): Adam {
    const s = adamStateSchema.parse(typeof state === 'string' ? JSON.parse(state) : state)
    if (s.m.length !== s.v.length) throw new RangeError(`m has ${s.m.length} entries but v has ${s.v.length}`)
    const adam = new Adam(s.m.length, { lr: s.lr, beta1: s.beta1, beta2: s.beta2, eps: s.eps, weightDecay: s.weightDecay, ...(s.decayMask === null ? {} : { decayMask: s.decayMask }) })
    adam.m.set(s.m)
    adam.v.set(s.v)
    adam.t = s.step
    return adam
  }
}

export const gradNorm = (grad: ArrayLike<number>): number => {
  let sum = 0
  for (let i = 0; i < grad.length; i++) sum += grad[i]! * grad[i]!
  return Math.sqrt(sum)
}

/**
 * Scale `grad` in place so its L2 norm is at most maxNorm; returns the norm before clipping (the
 * number to log). A non-finite norm is returned untouched: Adam.step then refuses the gradient.
 */
export const clipGradNorm = (grad: Float64Array, maxNorm: number): number => {
  if (!(maxNorm > 0)) throw new RangeError(`maxNorm must be positive, got ${maxNorm}`)
  const norm = gradNorm(grad)
  if (Number.isFinite(norm) && norm > maxNorm) {
    const scale = maxNorm / norm
    for (let i = 0; i < grad.length; i++) grad[i] = grad[i]! * scale
  }
  return norm
}
