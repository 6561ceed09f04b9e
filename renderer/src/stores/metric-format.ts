import type { MetricInfo } from '../../../preload/contract'
import { ciSide, signDecimals } from '../../../common'

/**
 * The one unit convention of every page, driven by the metric catalogue's `format`:
 * fractions as percentages with one decimal (differences in percentage points), numbers (rewards)
 * with three decimals, counts as whole numbers (a mean of counts with one decimal), durations in ms or s.
 */
const DASH = '–'

const finite = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v)

/** `v` in the metric's unit with its usual decimals; `keepSign`: more decimals where those would round a non-zero value to 0. */
function plain(info: Pick<MetricInfo, 'format'>, v: number, keepSign = false): string {
  const fixed = (x: number, d: number): string => x.toFixed(keepSign ? signDecimals(x, d) : d)
  switch (info.format) {
    case 'fraction':
      return fixed(v * 100, 1)
    case 'count':
      return Number.isInteger(v) ? String(v) : fixed(v, 1)
    case 'ms':
      return Math.abs(v) >= 1000 ? fixed(v / 1000, 2) : fixed(v, 0)
    default:
      return fixed(v, 3)
  }
}

function unit(info: Pick<MetricInfo, 'format'>, v: number, difference = false): string {
  if (info.format === 'fraction') return difference ? ' pp' : '%'
  if (info.format === 'ms') return Math.abs(v) >= 1000 ? ' s' : ' ms'
  return ''
}

/** A value of the metric: "45.3%", "0.842", "4", "4.2", "120 ms". */
export function formatMetric(info: Pick<MetricInfo, 'format'>, v: number | null | undefined): string {
  if (!finite(v)) return DASH
  const text = plain(info, Math.abs(v))
  // One minus sign on every page (differences use it too); a value that rounds to zero shows unsigned.
  return `${v < 0 && Number(text) !== 0 ? '−' : ''}${text}${unit(info, v)}`
}

/** A difference of two values, signed: "+3.2 pp", "−0.120"; a non-zero value never prints as zero ("−0.02 pp", not "−0.0 pp"). */
export function formatDifference(info: Pick<MetricInfo, 'format'>, d: number | null | undefined): string {
  if (!finite(d)) return DASH
  const sign = d > 0 ? '+' : d < 0 ? '−' : '±'
  return `${sign}${plain(info, Math.abs(d), true)}${unit(info, d, true)}`
}

/** A confidence interval of a value ("40.1–50.2%") or of a difference ("−1.0 … +3.4 pp"). */
export function formatInterval(info: Pick<MetricInfo, 'format'>, lower: number | null | undefined, upper: number | null | undefined, difference = false): string {
  // No interval to show, or a degenerate one (every resample agreed).
  if (!finite(lower) || !finite(upper) || lower === upper) return ''
  if (info.format === 'ms' && !difference) {
    const seconds = Math.max(Math.abs(lower), Math.abs(upper)) >= 1000
    const f = (v: number): string => (seconds ? (v / 1000).toFixed(2) : v.toFixed(0))
    return `${f(lower)}–${f(upper)} ${seconds ? 's' : 'ms'}`
  }
  if (difference) return `${formatDifference(info, lower).replace(/ pp$| ms$| s$/, '')} … ${formatDifference(info, upper)}`
  return `${formatMetric(info, lower).replace(/%$| ms$| s$/, '')}–${formatMetric(info, upper)}`
}

/** An axis tick of a difference chart, in the metric's unit: "+5 pp", "−0.1". */
export function formatTick(info: Pick<MetricInfo, 'format'>, t: number): string {
  const scaled = info.format === 'fraction' ? t * 100 : t
  const text = `${t > 0 ? '+' : t < 0 ? '−' : ''}${Number(Math.abs(scaled).toPrecision(6))}`
  return info.format === 'fraction' ? `${text} pp` : text
}

export type Judgement = 'better' | 'worse' | 'neutral'

/**
 * Whether a difference (candidate − baseline) is a gain or a loss by the metric's direction, judged by its
 * 95% CI: only an interval that excludes zero says so; one that spans zero, or none, is 'neutral'. The mean
 * alone never colours a difference (+6.1 pp with CI −3.2 … +15.5 is no evidence of a gain).
 */
export function judge(info: Pick<MetricInfo, 'direction'>, lower: number | null | undefined, upper: number | null | undefined): Judgement {
  const side = ciSide(lower, upper)
  if (info.direction === 'none' || side === null || side === 'spans') return 'neutral'
  return (side === 'above') === (info.direction === 'higher') ? 'better' : 'worse'
}
