/**
 * One optimiser update of the head from a batch of decisions: each decision's log-probability is recomputed
 * under the current parameters on every substep (so PPO-clip's and CISPO's ratios move), the loss's gradient
 * flows back through the head, the global norm is clipped and Adam steps.
 */
import { Adam, clipGradNorm, type PolicyHead } from '../../policy/head'
import type { HeadDecisionRecord } from '../../policy/head-policy'
import { policyLoss } from '../losses'
import type { TrainConfig } from './config'

export interface TrainingSample {
  record: HeadDecisionRecord
  advantage: number
}

export interface UpdateStats {
  loss: number
  /** Pre-clip gradient norm of the last substep. */
  gradNorm: number
  clippedFraction: number
  meanRatio: number
  /** Mean policy entropy over the batch's decisions (before the update). */
  entropy: number
  samples: number
}

export function policyUpdate(head: PolicyHead, adam: Adam, samples: readonly TrainingSample[], config: TrainConfig): UpdateStats {
  const n = samples.length
  const entropy = n ? samples.reduce((s, x) => s + x.record.entropy, 0) / n : 0
  if (n === 0) return { loss: 0, gradNorm: 0, clippedFraction: 0, meanRatio: 1, entropy, samples: 0 }
  const loss = policyLoss(config.loss.name)
  const logpOld = samples.map((s) => s.record.logp)
  const advantages = samples.map((s) => s.advantage)
  let stats: UpdateStats = { loss: 0, gradNorm: 0, clippedFraction: 0, meanRatio: 1, entropy, samples: n }
  for (let k = 0; k < config.substeps; k++) {
    head.zeroGrad()
    const forwards = samples.map((s) => head.forward(s.record.rows, s.record.prior ?? undefined, { temperature: config.temperature }))
    const logpNew = forwards.map((f, i) => f.logp[samples[i]!.record.chosen]!)
    const result = loss(
      { logpNew, logpOld, advantages },
      { clipEps: config.loss.clipEps, dualClip: config.loss.dualClip, cispoRange: [config.loss.cispoLow, config.loss.cispoHigh] },
    )
    // The entropy bonus is averaged over the batch like the loss.
    forwards.forEach((f, i) => head.accumulate(f.cache, samples[i]!.record.chosen, result.grad[i]!, config.entropyCoef / n))
    const gradNorm = clipGradNorm(head.grad, config.gradClip)
    adam.step(head.params, head.grad)
    stats = { loss: result.loss, gradNorm, clippedFraction: result.clippedFraction, meanRatio: result.meanRatio, entropy, samples: n }
  }
  return stats
}
