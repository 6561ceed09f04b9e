import { describe, expect, it } from 'vitest'
import { ciSide, signDecimals } from '../../common'
import { formatDifference as cliDifference } from '../../main/cli/table'
import type { MetricInfo } from '../../preload/contract'
import { formatDifference, formatInterval, judge } from '../../renderer/src/stores/metric-format'

const fraction: MetricInfo = { name: 'sp.f1', label: 'SP F1', description: '', direction: 'higher', format: 'fraction', group: 'Evidence', level: 'sentence', headline: true }
const lowerIsBetter: MetricInfo = { ...fraction, name: 'turns', direction: 'lower', format: 'count' }
const number: MetricInfo = { ...fraction, name: 'reward', format: 'number' }

describe('a difference is judged by its CI, never by its sign alone', () => {
  it('is neutral where the CI spans zero, whatever the mean (the issue\'s +6.1 pp [-3.2, +15.5] and -16.1 pp [-33.3, +1.6])', () => {
    expect(judge(fraction, -0.032, 0.155)).toBe('neutral')
    expect(judge(fraction, -0.333, 0.016)).toBe('neutral')
    expect(judge(fraction, 0, 0)).toBe('neutral')
  })
  it('is better or worse by the metric\'s direction only where the CI excludes zero', () => {
    expect(judge(fraction, 0.01, 0.2)).toBe('better')
    expect(judge(fraction, -0.2, -0.01)).toBe('worse')
    expect(judge(lowerIsBetter, -2, -1)).toBe('better')
    expect(judge(lowerIsBetter, 1, 2)).toBe('worse')
    expect(judge({ direction: 'none' }, 1, 2)).toBe('neutral')
  })
  it('is neutral without a CI (too few pairs)', () => {
    expect(judge(fraction, null, null)).toBe('neutral')
    expect(judge(fraction, undefined, 0.3)).toBe('neutral')
    expect(ciSide(null, 1)).toBeNull()
    expect(ciSide(0, 1)).toBe('spans')
    expect(ciSide(0.001, 1)).toBe('above')
    expect(ciSide(-1, -0.001)).toBe('below')
  })
})

describe('CI bounds print with the digits that show their side of zero', () => {
  it('a bound of -0.0002 is -0.02 pp on the pages and in the CLI, not -0.0 pp', () => {
    expect(formatDifference(fraction, -0.0002)).toBe('−0.02 pp')
    expect(cliDifference(-0.0002, fraction)).toBe('-0.02 pp')
    expect(cliDifference(0.00004, fraction)).toBe('+0.004 pp')
    expect(formatInterval(fraction, -0.0002, 0.155, true)).toBe('−0.02 … +15.5 pp')
    expect(formatDifference(number, 0.00002)).toBe('+0.00002')
  })
  it('keeps the usual decimals where they already show the sign', () => {
    expect(formatDifference(fraction, 0.061)).toBe('+6.1 pp')
    expect(cliDifference(-0.161, fraction)).toBe('-16.1 pp')
    expect(formatDifference(fraction, 0)).toBe('±0.0 pp')
    expect(signDecimals(0, 1)).toBe(1)
    expect(signDecimals(-0.0002, 1)).toBe(4)
  })
})
