import type { AblationResults, MetricInfo } from '../../../../preload/contract'
import { formatDifference, formatInterval, formatMetric } from '../../stores/metric-format'

/**
 * Exports of an ablation: the table as CSV (raw numbers, one row per row and metric, machine-readable)
 * and as Markdown (formatted with the pages' unit convention), each chart as SVG or PNG. In the browser
 * they download; in Electron the same anchor download saves the file.
 */
type Describe = (name: string) => MetricInfo

const csvCell = (v: string | number | boolean | null): string => {
  if (v === null) return ''
  const s = String(v)
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

export function resultsCsv(results: AblationResults, describe: Describe): string {
  const header = ['row', 'label', 'group', 'environment', 'metric', 'metric_label', 'mean', 'ci_lower', 'ci_upper', 'questions', 'difference', 'difference_ci_lower', 'difference_ci_upper', 'paired_questions', 'excludes_zero', 'missing_pairs', 'reason']
  const lines = [header.join(',')]
  for (const row of results.rows) {
    for (const m of results.metrics) {
      const c = row.cells[m]
      if (!c) continue
      lines.push(
        [row.index, row.label, row.group, row.environment, m, describe(m).label, c.value.mean, c.value.lower, c.value.upper, c.value.count, c.difference.mean, c.difference.lower, c.difference.upper, c.difference.count, c.difference.excludesZero, row.missing.count, c.reason]
          .map(csvCell)
          .join(','),
      )
    }
  }
  return `${lines.join('\n')}\n`
}

const md = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ')

/** One Markdown table per metric: rows with value, difference, CI and marker, or the reason a cell is empty. */
export function resultsMarkdown(name: string, results: AblationResults, describe: Describe): string {
  const out = [`# Ablation: ${md(name)}`, '', `Paired differences against the base with ${Math.round(results.bootstrap.confidence * 100)}% bootstrap CIs over ${results.bootstrap.unit}, ${results.bootstrap.resamples} resamples; * marks an interval that excludes zero.`, '']
  for (const m of results.metrics) {
    const info = describe(m)
    out.push(`## ${md(info.label)}`, '', '| Row | Value | Difference | 95% CI | Paired | Note |', '| --- | --- | --- | --- | --- | --- |')
    for (const row of results.rows) {
      const c = row.cells[m]
      if (!c) continue
      const diff = row.index === 0 ? 'base' : `${formatDifference(info, c.difference.mean)}${c.difference.excludesZero ? ' *' : ''}`
      const note = [c.reason, row.missing.count > 0 ? `${row.missing.count} base pairs missing` : null].filter(Boolean).join('; ')
      out.push(`| ${md(row.label)} | ${formatMetric(info, c.value.mean)} | ${diff} | ${formatInterval(info, c.difference.lower, c.difference.upper, true)} | ${c.difference.count} | ${md(note)} |`)
    }
    out.push('')
  }
  return out.join('\n')
}

export function download(filename: string, blob: Blob): void {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = filename
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

export const downloadText = (filename: string, text: string, type: string): void => download(filename, new Blob([text], { type }))

/** The chart as a standalone SVG document, with the page's computed colours inlined (the stylesheet does not travel with it). */
export function svgDocument(svg: SVGSVGElement): string {
  const copy = svg.cloneNode(true) as SVGSVGElement
  const source = [svg, ...svg.querySelectorAll('*')]
  const target = [copy, ...copy.querySelectorAll('*')]
  source.forEach((el, i) => {
    const style = getComputedStyle(el)
    const t = target[i] as SVGElement
    for (const prop of ['fill', 'stroke', 'stroke-width', 'stroke-dasharray', 'opacity', 'font-size', 'font-family', 'font-weight']) t.style.setProperty(prop, style.getPropertyValue(prop))
  })
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg')
  const box = svg.viewBox.baseVal
  if (box && box.width > 0) {
    copy.setAttribute('width', String(box.width))
    copy.setAttribute('height', String(box.height))
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(copy)}`
}

export function downloadSvg(filename: string, svg: SVGSVGElement): void {
  downloadText(filename, svgDocument(svg), 'image/svg+xml')
}

/** Rasterises the SVG at twice its size on a white background. */
export async function downloadPng(filename: string, svg: SVGSVGElement): Promise<void> {
  const text = svgDocument(svg)
  const box = svg.viewBox.baseVal
  const width = box?.width || svg.clientWidth || 640
  const height = box?.height || svg.clientHeight || 400
  const image = new Image()
  const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }))
  try {
    await new Promise<void>((resolve, reject) => {
      image.onload = () => resolve()
      image.onerror = () => reject(new Error('The chart could not be rasterised'))
      image.src = url
    })
    const canvas = document.createElement('canvas')
    canvas.width = width * 2
    canvas.height = height * 2
    const ctx = canvas.getContext('2d')!
    ctx.fillStyle = '#fff'
    ctx.fillRect(0, 0, canvas.width, canvas.height)
    ctx.drawImage(image, 0, 0, canvas.width, canvas.height)
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'))
    if (!blob) throw new Error('The chart could not be encoded as PNG')
    download(filename, blob)
  } finally {
    URL.revokeObjectURL(url)
  }
}
