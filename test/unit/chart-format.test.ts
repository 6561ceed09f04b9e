import { scaleLinear } from 'd3'
import { describe, expect, it } from 'vitest'
import { smoothed, tickFormatter } from '../../renderer/src/components/training/chart-format'
import { liveWarnings } from '../../renderer/src/components/training/live-warnings'
import type { TrainStepDiagnostics } from '../../preload/contract'

const labels = (domain: [number, number], format: 'fraction' | 'number' | 'count' | 'ms'): string[] => {
  const y = scaleLinear().domain(domain).nice()
  return y.ticks(4).map(tickFormatter(y, 4, format))
}

describe('chart tick labels', () => {
  it('give small values the decimals they need, counts no padding zeros, fractions as percentages', () => {
    const small = labels([0, 0.0012], 'number')
    expect(new Set(small).size).toBe(small.length)
    expect(small).not.toContain('0.000')
    expect(labels([7, 7.5], 'count')).toEqual(['7', '7.1', '7.2', '7.3', '7.4', '7.5'])
    expect(labels([0, 1], 'fraction')).toEqual(['0%', '20%', '40%', '60%', '80%', '100%'])
    expect(labels([0, 0.05], 'fraction')).toContain('1%')
  })
})

describe('EMA smoothing', () => {
  it('is the raw series at 0 and a debiased moving average above', () => {
    const pts = [0, 1, 2, 3].map((x) => ({ x, y: x % 2 }))
    expect(smoothed(pts, 0)).toEqual(pts)
    const s = smoothed(pts, 0.5)
    expect(s[0]!.y).toBe(0)
    expect(s[1]!.y).toBeCloseTo(2 / 3, 10)
    expect(s.map((p) => p.x)).toEqual([0, 1, 2, 3])
  })
})

describe('live training warnings', () => {
  const step = (n: number, d: Partial<TrainStepDiagnostics>): TrainStepDiagnostics =>
    ({ step: n, reward: 0, components: {}, advantageMean: 0, advantageStd: 0, zeroAdvantageRate: 0, allCorrectRate: 0, allWrongRate: 0, equivalenceClasses: 1, spanningGroups: 0, queryDiversity: null, actionMix: {}, turns: 1, evidence: 1, loss: 0, gradNorm: 0, entropy: 2, clippedFraction: 0, keptGroups: 2, creditScale: 1, seconds: 1, heldOut: null, rollouts: 4, klToBase: null, klWarning: null, tokensTrained: null, secondsPerUpdate: null, learningRate: null, stepScale: null, ...d }) as TrainStepDiagnostics
  it('names the KL guard, an entropy collapse and a high zero-advantage share as the steps arrive', () => {
    expect(liveWarnings([step(0, {}), step(1, { entropy: 1.9 })])).toEqual([])
    const w = liveWarnings([step(0, {}), step(1, { klWarning: 'KL 0.9 over target 0.2: step halved' }), step(2, { entropy: 0.3, zeroAdvantageRate: 0.75, allWrongRate: 0.5, allCorrectRate: 0.25 })])
    expect(w.map((x) => x.kind)).toEqual(['kl', 'collapse', 'zero-advantage'])
    expect(w[0]!.text).toBe('KL 0.9 over target 0.2: step halved')
    expect(w[1]!.text).toMatch(/Entropy fell from 2\.00 \(step 0\) to 0\.30 \(step 2\)/)
    expect(w[2]!.text).toBe("75% of step 2's groups had zero advantage (all wrong 50%, all correct 25%): they teach nothing")
  })
})
