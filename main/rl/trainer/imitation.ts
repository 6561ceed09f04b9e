/**
 * A supervised warm start of the head (behaviour cloning): minibatch cross-entropy of the teacher's choices,
 * -mean log p(chosen), with its own Adam, in shuffled passes seeded by the run. No reward, advantage or
 * entropy bonus enters it; RL starts from the weights it leaves, with a fresh optimiser.
 */
import { seededRandom } from '../../eval'
import { Adam, clipGradNorm, type PolicyHead } from '../../policy/head'
import type { ImitationSample } from '../../policy/head-policy'

export interface ImitationOptions {
  epochs: number
  learningRate: number
  batchSize: number
  gradClip: number
  temperature: number
  seed: number
}

export interface ImitationStats {
  samples: number
  /** Mean cross-entropy (nats) of each pass, measured as it trains; then after the last. */
  epochLoss: number[]
  finalLoss: number
  /** Share of samples whose argmax is the teacher's choice, before and after. */
  agreementBefore: number
  agreementAfter: number
}

/** Mean cross-entropy and argmax agreement of the head on the samples. */
export function imitationFit(head: PolicyHead, samples: readonly ImitationSample[], temperature: number): { loss: number; agreement: number } {
  let loss = 0
  let agree = 0
  for (const s of samples) {
    const out = head.forward(s.rows, s.prior ?? undefined, { temperature })
    loss -= out.logp[s.chosen]!
    let best = 0
    for (let i = 1; i < out.logp.length; i++) if (out.logp[i]! > out.logp[best]!) best = i
    if (best === s.chosen) agree++
  }
  const n = Math.max(1, samples.length)
  return { loss: loss / n, agreement: agree / n }
}

export function imitate(head: PolicyHead, samples: readonly ImitationSample[], options: ImitationOptions, onEpoch?: (epoch: number, loss: number) => void): ImitationStats {
  const before = imitationFit(head, samples, options.temperature)
  const adam = new Adam(head.size, { lr: options.learningRate })
  const random = seededRandom((options.seed ^ 0x494d4954) >>> 0)
  const order = samples.map((_, i) => i)
  const epochLoss: number[] = []
  for (let e = 0; e < options.epochs && samples.length > 0; e++) {
    for (let k = order.length - 1; k > 0; k--) {
      const r = Math.floor(random() * (k + 1))
      ;[order[k], order[r]] = [order[r]!, order[k]!]
    }
    let sum = 0
    for (let start = 0; start < order.length; start += options.batchSize) {
      const batch = order.slice(start, start + options.batchSize)
      head.zeroGrad()
      for (const i of batch) {
        const s = samples[i]!
        const out = head.forward(s.rows, s.prior ?? undefined, { temperature: options.temperature })
        sum -= out.logp[s.chosen]!
        // L = -logp(chosen) / B: accumulate adds dL/dtheta for g * logp(chosen).
        head.accumulate(out.cache, s.chosen, -1 / batch.length)
      }
      clipGradNorm(head.grad, options.gradClip)
      adam.step(head.params, head.grad)
    }
    epochLoss.push(sum / samples.length)
    onEpoch?.(e, sum / samples.length)
  }
  const after = imitationFit(head, samples, options.temperature)
  return { samples: samples.length, epochLoss, finalLoss: after.loss, agreementBefore: before.agreement, agreementAfter: after.agreement }
}
