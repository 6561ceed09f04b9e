import type { ScaleLinear } from 'd3'
import type { MetricInfo } from '../../../../preload/contract'

/**
 * Tick labels with the precision the tick spacing needs (d3's tickFormat picks it from the step):
 * fractions as percentages ("12.5%"), counts and numbers without padding zeros ("7", "7.5", "0.0004"),
 * durations in ms. A fixed number of decimals drew small values as 0.000 and counts as "7.000".
 */
export function tickFormatter(scale: ScaleLinear<number, number>, count: number, format: MetricInfo['format']): (v: number) => string {
  if (format === 'fraction') return scale.tickFormat(count, '~%')
  const plain = scale.tickFormat(count, '~f')
  return format === 'ms' ? (v) => `${plain(v)} ms` : plain
}

/**
 * Exponential moving average as W&B smooths a curve: each point leans on the ones before it by
 * `weight` (0 = raw, 0.99 = very smooth), debiased so the first points are not pulled towards zero.
 */
export function smoothed(points: readonly { x: number; y: number }[], weight: number): { x: number; y: number }[] {
  if (weight <= 0) return [...points]
  let last = 0
  return points.map((p, i) => {
    last = last * weight + (1 - weight) * p.y
    return { x: p.x, y: last / (1 - weight ** (i + 1)) }
  })
}
