/** Line charts as standalone SVG for the Markdown report (the Findings page draws the same series itself). */
import type { FindingsSeries } from '../../../preload/contract'

const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf']
const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

export function seriesSvg(series: FindingsSeries, width = 560, height = 300): string {
  const pad = { left: 48, right: 12, top: 28, bottom: 40 }
  const points = series.lines.flatMap((l) => l.points)
  const xs = points.map((p) => p.x)
  const ys = points.map((p) => p.y)
  const [x0, x1] = xs.length ? [Math.min(...xs), Math.max(...xs)] : [0, 1]
  const [y0, y1] = ys.length ? [Math.min(0, ...ys), Math.max(...ys, 1e-9)] : [0, 1]
  const sx = (x: number) => pad.left + ((x - x0) / (x1 - x0 || 1)) * (width - pad.left - pad.right)
  const sy = (y: number) => height - pad.bottom - ((y - y0) / (y1 - y0 || 1)) * (height - pad.top - pad.bottom)
  const lines = series.lines.map((l, i) => {
    const c = COLOURS[i % COLOURS.length]!
    const d = l.points.map((p, j) => `${j ? 'L' : 'M'}${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`).join('')
    const dots = l.points.map((p) => `<circle cx="${sx(p.x).toFixed(1)}" cy="${sy(p.y).toFixed(1)}" r="2.5" fill="${c}"/>`).join('')
    const legend = `<text x="${width - pad.right - 4}" y="${pad.top + 14 * i + 4}" text-anchor="end" fill="${c}" font-size="11">${esc(l.label)}</text>`
    return `<path d="${d}" fill="none" stroke="${c}" stroke-width="1.5"/>${dots}${legend}`
  })
  const axis = [
    `<line x1="${pad.left}" y1="${height - pad.bottom}" x2="${width - pad.right}" y2="${height - pad.bottom}" stroke="#555"/>`,
    `<line x1="${pad.left}" y1="${pad.top}" x2="${pad.left}" y2="${height - pad.bottom}" stroke="#555"/>`,
    `<text x="${pad.left}" y="${height - pad.bottom + 14}" font-size="10">${x0}</text>`,
    `<text x="${width - pad.right}" y="${height - pad.bottom + 14}" font-size="10" text-anchor="end">${x1}</text>`,
    `<text x="${pad.left - 4}" y="${height - pad.bottom}" font-size="10" text-anchor="end">${+y0.toFixed(3)}</text>`,
    `<text x="${pad.left - 4}" y="${pad.top + 4}" font-size="10" text-anchor="end">${+y1.toFixed(3)}</text>`,
    `<text x="${(width + pad.left) / 2}" y="${height - 8}" font-size="11" text-anchor="middle">${esc(series.x)}</text>`,
    `<text x="12" y="${(height + pad.top) / 2}" font-size="11" transform="rotate(-90 12 ${(height + pad.top) / 2})" text-anchor="middle">${esc(series.y)}</text>`,
    `<text x="${pad.left}" y="16" font-size="12" font-weight="bold">${esc(series.title)}</text>`,
  ]
  const empty = points.length === 0 ? `<text x="${width / 2}" y="${height / 2}" text-anchor="middle" font-size="12" fill="#777">no training steps recorded</text>` : ''
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif"><rect width="100%" height="100%" fill="#fff"/>${axis.join('')}${lines.join('')}${empty}</svg>\n`
}
