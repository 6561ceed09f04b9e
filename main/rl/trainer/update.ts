/**
 * One optimiser update of the head from a batch of decisions: each decision's log-probability is recomputed
 * under the current parameters on every substep (so PPO-clip's and CISPO's ratios move), the loss's gradient
 * flows back through the head, the global norm is clipped and Adam steps.
 */
import { Adam, clipGradNorm, type PolicyHead } from '../../policy/head'
import type { HeadDecisionRecord } from '../../policy/head-policy'
import { losses } from '../losses'
import type { UpdateConfig } from './config'

export interface TrainingSample {
  record: HeadDecisionRecord
  advantage: number
  /** A decision of a dropped zero-variance group: it feeds the entropy bonus, not the policy-gradient loss. */
  entropyOnly?: boolean
}

export interface UpdateStats {
  loss: number
  /** Pre-clip gradient norm of the last substep. */
  gradNorm: number
  clippedFraction: number
  meanRatio: number
  /** Mean policy entropy over every decision given (before the update), entropy-only ones included. */
  entropy: number
  /** Decisions in the policy-gradient loss. */
  samples: number
}

/**
 * The policy-gradient loss is the mean over the loss samples; the entropy bonus is the mean over every
 * decision given, so decisions of dropped zero-variance groups (the states where the policy has already
 * become deterministic) still pull back from collapse without adding noise to the gradient.
 */
export function policyUpdate(head: PolicyHead, adam: Adam, samples: readonly TrainingSample[], config: UpdateConfig): UpdateStats {
  const all = samples.length
  const pg = samples.filter((s) => !s.entropyOnly)
  const entropyOnly = samples.filter((s) => s.entropyOnly)
  const entropy = all ? samples.reduce((s, x) => s + x.record.entropy, 0) / all : 0
  if (pg.length === 0 && (entropyOnly.length === 0 || config.entropyCoef === 0)) return { loss: 0, gradNorm: 0, clippedFraction: 0, meanRatio: 1, entropy, samples: 0 }
  const declared = losses.get(config.loss.name)
  const loss = declared.impl
  const lossOptions = declared.options(config.loss)
  const logpOld = pg.map((s) => s.record.logp)
  const advantages = pg.map((s) => s.advantage)
  const bonus = config.entropyCoef / all
  const forward = (s: TrainingSample) => head.forward(s.record.rows, s.record.prior ?? undefined, { temperature: config.temperature })
  let stats: UpdateStats = { loss: 0, gradNorm: 0, clippedFraction: 0, meanRatio: 1, entropy, samples: pg.length }
  for (let k = 0; k < config.substeps; k++) {
    head.zeroGrad()
    const forwards = pg.map(forward)
    const logpNew = forwards.map((f, i) => f.logp[pg[i]!.record.chosen]!)
    const result = loss({ logpNew, logpOld, advantages }, lossOptions)
    forwards.forEach((f, i) => head.accumulate(f.cache, pg[i]!.record.chosen, result.grad[i]!, bonus))
    if (bonus > 0) for (const s of entropyOnly) head.accumulate(forward(s).cache, s.record.chosen, 0, bonus)
    const gradNorm = clipGradNorm(head.grad, config.gradClip)
    adam.step(head.params, head.grad)
    stats = { loss: result.loss, gradNorm, clippedFraction: result.clippedFraction, meanRatio: result.meanRatio, entropy, samples: pg.length }
  }
  return stats
}
