/**
 * Issue 34 part 5: a Harness-1 reward weight is declared in harness1WeightsSchema (main/rl/rewards); the
 * lists a person sees are checked against it here: the Rewards page's weight fields (training catalogue),
 * the Runs page's editable weights (harness catalogue) and the reward-term metrics of the terms the
 * weights scale, with the bounds each field states agreeing with the schema's.
 */
import { describe, expect, it } from 'vitest'
import { numberBounds } from '../../preload/contract'
import { harnessCatalog } from '../../main/experiments/catalog'
import { metrics } from '../../main/experiments/metrics'
import { trainingCatalog } from '../../main/experiments/training'
import { HARNESS1_TERMS, harness1WeightsSchema, PUBLISHED_HARNESS1_WEIGHTS } from '../../main/rl/rewards'

const weightNames = Object.keys(harness1WeightsSchema.shape)

describe('the lists of Harness-1 reward weights', () => {
  it('the Rewards page lists every weight once, in the schema’s order, with its published value', () => {
    const fields = trainingCatalog().harness1Weights
    expect(fields.map((f) => f.name)).toEqual(weightNames)
    for (const f of fields) {
      expect([f.name, f.published]).toEqual([f.name, PUBLISHED_HARNESS1_WEIGHTS[f.name as keyof typeof PUBLISHED_HARNESS1_WEIGHTS]])
      expect(f.label.length, f.name).toBeGreaterThan(1)
      expect(f.description.length, f.name).toBeGreaterThan(5)
    }
  })

  it('each field’s integer flag and lower bound say what the schema enforces', () => {
    for (const f of trainingCatalog().harness1Weights) {
      const b = numberBounds(harness1WeightsSchema.shape[f.name as keyof typeof harness1WeightsSchema.shape])
      expect([f.name, f.integer]).toEqual([f.name, b.integer])
      if (b.min === null) expect([f.name, f.min]).toEqual([f.name, null])
      else if (b.minExclusive) expect(f.min, f.name).toBeGreaterThan(b.min)
      else expect([f.name, f.min]).toEqual([f.name, b.min])
    }
  })

  it('the Runs page edits every weight, and every term the weights scale is a declared metric', () => {
    expect(Object.keys(harnessCatalog().rewardWeights)).toEqual(weightNames)
    const declared = new Set(metrics.names())
    for (const term of HARNESS1_TERMS) expect(declared.has(`reward.${term}`), term).toBe(true)
  })
})
