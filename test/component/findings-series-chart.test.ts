/**
 * A findings claim's chart at the scale claim 4 draws (per-step values in the thousandths): every tick
 * label is distinct (a fixed precision labelled them all "0"), and the chart fills its card's width.
 */
import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import SeriesChart from '../../renderer/src/components/findings/SeriesChart.vue'

describe('findings series chart', () => {
  it('labels small values with distinct ticks, the steps as whole numbers', () => {
    const w = mount(SeriesChart, {
      props: {
        series: {
          title: 'Zero-advantage share per step',
          x: 'step',
          y: 'share',
          lines: [
            { label: 'outcome', points: [0, 1, 2, 3, 4, 5].map((x) => ({ x, y: 0.001 + x * 0.0006 })) },
            { label: 'SNC', points: [0, 1, 2, 3, 4, 5].map((x) => ({ x, y: 0.002 + x * 0.0002 })) },
          ],
        },
      },
    })
    const y = w.findAll('[data-test=y-tick]').map((t) => t.text())
    expect(y.length).toBeGreaterThan(2)
    expect(new Set(y).size).toBe(y.length)
    expect(y.filter((t) => t !== '0').length).toBeGreaterThan(1)
    const x = w.findAll('[data-test=x-tick]').map((t) => t.text())
    expect(x).toEqual(['0', '1', '2', '3', '4', '5'])
    // The SVG scales to its card: a viewBox and no fixed pixel width.
    expect(w.get('svg').attributes('viewBox')).toBe('0 0 560 260')
    expect(w.get('svg').attributes('width')).toBeUndefined()
  })
})
