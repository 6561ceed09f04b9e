/**
 * The entropy bonus on the decisions of dropped zero-variance groups: a batch whose every group is
 * zero-variance leaves the head untouched when the bonus covers kept groups only, and raises the
 * policy's entropy on those very states when it covers dropped groups too; the policy-gradient loss
 * never sees them (UpdateStats.samples counts the loss samples only).
 */
import { describe, expect, it } from 'vitest'
import { Adam, createHead } from '../../main/policy/head'
import type { HeadDecisionRecord } from '../../main/policy/head-policy'
import { trainConfigSchema, trainOnBatch, type RolloutSummary, type TrainingRollout } from '../../main/rl/trainer'

const DIM = 4
const rowsOf = (k: number): Float64Array[] => Array.from({ length: 3 }, (_, i) => Float64Array.from({ length: DIM }, (_, j) => Math.sin(1 + k * 7 + i * 3 + j)))

function rollout(head: ReturnType<typeof createHead>, k: number, reward: number): TrainingRollout {
  const rows = rowsOf(k)
  const f = head.forward(rows)
  const chosen = 0
  const record: HeadDecisionRecord = { t: 0, rows, prior: null, chosen, logp: f.logp[chosen]!, entropy: f.entropy, type: 'SELECT', types: ['SELECT', 'SELECT', 'SELECT'] }
  const summary: RolloutSummary = { reward, components: {}, correct: reward >= 1, evidence: [k], queries: [], actions: ['SELECT'], turns: 1 }
  return { summary, records: [record], credit: [{ total: 0 } as TrainingRollout['credit'][number]] }
}

const config = (entropyOnDropped: boolean) =>
  trainConfigSchema.parse({ environment: 'graph-menu', entropyOnDropped, credit: { scheme: 'outcome', lambda: 0 }, estimator: 'grpo', train: { questionSetId: 1, limit: 4 }, heldOut: { questionSetId: 1, offset: 4, limit: 4 } })

describe('entropy bonus on dropped zero-variance groups', () => {
  for (const on of [false, true]) {
    it(on ? 'raises the entropy of the dropped states when on' : 'leaves the head untouched when off', () => {
      const head = createHead('linear', { inputDim: DIM, seed: 5 })
      // Sharpen the head first so there is entropy to gain.
      for (let i = 0; i < head.params.length - 1; i++) head.params[i] = head.params[i]! * 6
      const adam = new Adam(head.size, { lr: 0.05 })
      const groups = [0, 1].map((k) => [rollout(head, k, 0.5), rollout(head, k, 0.5)])
      const before = Float64Array.from(head.params)
      const entropyBefore = [0, 1].map((k) => head.forward(rowsOf(k)).entropy)
      const result = trainOnBatch(head, adam, groups, config(on))
      expect(result.kept).toEqual([])
      expect(result.update.samples).toBe(0)
      if (!on) {
        expect(Array.from(head.params)).toEqual(Array.from(before))
        return
      }
      expect(Array.from(head.params)).not.toEqual(Array.from(before))
      const entropyAfter = [0, 1].map((k) => head.forward(rowsOf(k)).entropy)
      entropyAfter.forEach((h, i) => expect(h).toBeGreaterThan(entropyBefore[i]!))
    })
  }
})
