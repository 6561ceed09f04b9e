import type { MetricInfo, RunSummary } from '../../preload/contract'

const pct = (v: number): string => `${(v * 100).toFixed(1)}%`

/** A value as the pages show it: fractions as percentages, counts whole, durations in ms. */
export function formatMetric(value: number | null, info: MetricInfo | undefined): string {
  if (value === null) return '–'
  switch (info?.format) {
    case 'fraction':
      return pct(value)
    case 'count':
      return Number.isInteger(value) ? String(value) : value.toFixed(2)
    case 'ms':
      return `${value.toFixed(0)} ms`
    default:
      return value.toFixed(3)
  }
}

/** A paired difference: fractions in percentage points ("+4.5 pp"), other formats as formatMetric writes them, signed. */
export function formatDifference(value: number | null, info: MetricInfo | undefined): string {
  if (value === null) return '–'
  const sign = value > 0 ? '+' : ''
  if (info?.format === 'fraction') return `${sign}${(value * 100).toFixed(1)} pp`
  return `${sign}${formatMetric(value, info === undefined ? info : { ...info, format: info.format === 'count' ? 'number' : info.format })}`
}

/**
 * A run's aggregates as a table: headline metrics first (the Runs page's columns), then the rest by
 * name; mean, bootstrap CI and count, read from the same stored summary the UI reads.
 */
export function aggregateTable(run: RunSummary, catalogue: readonly MetricInfo[], all = true): string {
  const info = new Map(catalogue.map((m) => [m.name, m]))
  const names = Object.keys(run.metrics).sort((a, b) => Number(info.get(b)?.headline ?? false) - Number(info.get(a)?.headline ?? false) || a.localeCompare(b))
  const shown = all ? names : names.filter((n) => info.get(n)?.headline)
  const rows = shown.map((name) => {
    const m = run.metrics[name]!
    const i = info.get(name)
    const ci = m.lower !== null && m.upper !== null ? `[${formatMetric(m.lower, i)}, ${formatMetric(m.upper, i)}]` : ''
    return [i?.label ?? name, name, formatMetric(m.mean, i), ci, String(m.count)]
  })
  const header = ['metric', 'name', 'mean', '95% CI', 'n']
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)))
  const line = (cells: string[]): string => cells.map((cell, c) => (c >= 2 ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join('  ').trimEnd()
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n')
}

/** Whether a wall-clock safety net cut any of the run's results short (then they depend on machine load); '' when the run did not record it. */
export function wallClockLine(run: Pick<RunSummary, 'wallClockGuards'>): string {
  const g = run.wallClockGuards
  if (g === null) return ''
  if (g.episodes === 0) return 'Wall-clock guards: none fired (every result depends on the seed, not on machine load)'
  return `Wall-clock guard fired in ${g.steps} step${g.steps === 1 ? '' : 's'} of ${g.episodes} episode${g.episodes === 1 ? '' : 's'}: those results depend on machine load`
}
