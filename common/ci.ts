/**
 * Differences judged by their confidence interval, the one rule of every page and of the CLI: a difference
 * is a gain or a loss only where its 95% CI excludes zero; otherwise it is drawn neutral, CI beside it.
 */

/** Where an interval lies against zero; null without one (a single pair, or no pairs). */
export function ciSide(lower: number | null | undefined, upper: number | null | undefined): 'above' | 'below' | 'spans' | null {
  if (typeof lower !== 'number' || typeof upper !== 'number' || !Number.isFinite(lower) || !Number.isFinite(upper)) return null
  if (lower > 0) return 'above'
  if (upper < 0) return 'below'
  return 'spans'
}

/**
 * The decimals `v` needs (at least `min`, at most `max`) for its printed digits to keep its side of zero:
 * -0.0002 at one decimal reads "-0.0", so a CI bound printed that way would hide whether it excludes zero.
 */
export function signDecimals(v: number, min: number, max = 6): number {
  if (v === 0 || !Number.isFinite(v)) return min
  let d = min
  while (d < max && Number(Math.abs(v).toFixed(d)) === 0) d++
  return d
}
