/**
 * A training run's time, from what its steps measured (common/run-time.ts): the time left after a step counts
 * the remaining steps and every held-out pass still to come; a GGUF run's shape is sized to a budget from
 * measured rates, the largest shape that fits.
 */
import { describe, expect, it } from 'vitest'
import { expectedRunSeconds, fitRunShape, formatDuration, remainingSeconds, RUN_SHAPES, type GgufRates } from '../../common'

const rates: GgufRates = { secondsPerRollout: 0.5, decisionsPerRollout: 2, updateSecondsPerDecision: 0.25, heldOutSecondsPerQuestion: 0.4, stepOverheadSeconds: 1 }

describe('run time', () => {
  it('counts the steps left and every held-out pass still to come', () => {
    // step 0 took 30 s of which 10 s held-out; step 1 took 20 s with no pass
    const timing = [{ seconds: 30, heldOutSeconds: 10 }, { seconds: 20, heldOutSeconds: null }]
    // after step 1 of 10 with a pass every 5 steps: 8 steps at 20 s, passes at step 5 and the final one at 10 s
    expect(remainingSeconds(timing, { steps: 10, evalInterval: 5 }, 1)).toBe(8 * 20 + 2 * 10)
    expect(remainingSeconds(timing, { steps: 2, evalInterval: 5 }, 1)).toBe(10)
    expect(remainingSeconds([], { steps: 10, evalInterval: 5 }, 0)).toBeNull()
  })

  it('expects a GGUF shape from the measured rates', () => {
    // per step: 4 x 4 rollouts at 0.5 s, 32 decisions at 0.25 s, 1 s overhead = 17 s; passes at 0, 5 and the end: 3 x 10 x 0.4 s
    expect(expectedRunSeconds(rates, { steps: 6, groupSize: 4, questionsPerStep: 4, heldOutQuestions: 10, evalInterval: 5 })).toBeCloseTo(6 * 17 + 3 * 4)
  })

  it('sizes the largest shape that fits the budget, the smallest when none does', () => {
    const fitted = fitRunShape(rates, 600, 24, 5)
    expect(fitted.expectedSeconds).toBeLessThanOrEqual(600)
    const bigger = RUN_SHAPES[RUN_SHAPES.findIndex((s) => s.steps === fitted.steps && s.groupSize === fitted.groupSize && s.questionsPerStep === fitted.questionsPerStep) - 1]!
    expect(expectedRunSeconds(rates, { ...bigger, heldOutQuestions: 24, evalInterval: 5 })).toBeGreaterThan(600)
    const tiny = fitRunShape(rates, 1, 24, 5)
    expect(tiny).toMatchObject(RUN_SHAPES.at(-1)!)
    expect(tiny.expectedSeconds).toBeGreaterThan(1)
  })

  it('says durations in words', () => {
    expect(formatDuration(45)).toBe('45 s')
    expect(formatDuration(12 * 60)).toBe('12 min')
    expect(formatDuration(2 * 3600 + 5 * 60)).toBe('2 h 05 min')
  })
})
