import type { MetricInfo } from '../../../preload/contract'

/**
 * The one unit convention of every page, driven by the metric catalogue's `format`:
 * fractions as percentages with one decimal (differences in percentage points), numbers (rewards)
 * with three decimals, counts as whole numbers (a mean of counts with one decimal), durations in ms or s.
 */
const DASH = '–'

const finite = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v)

function plain(info: Pick<MetricInfo, 'format'>, v: number): string {
  switch (info.format) {
    case 'fraction':
      return (v * 100).toFixed(1)
    case 'count':
      return Number.isInteger(v) ? String(v) : v.toFixed(1)
    case 'ms':
      return Math.abs(v) >= 1000 ? (v / 1000).toFixed(2) : v.toFixed(0)
    default:
      return v.toFixed(3)
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

/** A difference of two values, signed: "+3.2 pp", "−0.120". */
export function formatDifference(info: Pick<MetricInfo, 'format'>, d: number | null | undefined): string {
  if (!finite(d)) return DASH
  const sign = d > 0 ? '+' : d < 0 ? '−' : '±'
  return `${sign}${plain(info, Math.abs(d))}${unit(info, d, true)}`
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

/** Whether a difference (candidate − baseline) is an improvement, by the metric's direction. */
export function judge(info: Pick<MetricInfo, 'direction'>, d: number | null | undefined): 'better' | 'worse' | 'same' | 'neutral' {
  if (!finite(d) || info.direction === 'none') return 'neutral'
  if (d === 0) return 'same'
  return (d > 0) === (info.direction === 'higher') ? 'better' : 'worse'
}
