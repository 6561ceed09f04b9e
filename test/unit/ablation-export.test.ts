import { describe, expect, it } from 'vitest'
import type { AblationResults, MetricInfo } from '../../preload/contract'
import { metricInfo } from '../../main/experiments/metrics'
import { resultsCsv, resultsMarkdown } from '../../renderer/src/components/ablation/export'

const describeMetric = (name: string): MetricInfo => metricInfo(name)
const empty = { mean: null, lower: null, upper: null, count: 0 }
const row = (index: number, label: string, cells: AblationResults['rows'][number]['cells'], missing = 0): AblationResults['rows'][number] => ({
  index, label, group: 'g', kind: 'eval', environment: 'graph-menu', unavailable: null, error: null, runIds: [], trainRunIds: [],
  missing: { count: missing, questions: [] }, cells, episodes: {}, toolMix: {}, curves: [],
})

const results: AblationResults = {
  metrics: ['sp.recall', 'episode.policyTokens'],
  keys: [],
  bootstrap: { resamples: 2000, confidence: 0.95, seed: 1, unit: 'questions' },
  rows: [
    row(0, 'base', { 'sp.recall': { value: { mean: 0.3, lower: 0.1, upper: 0.5, count: 5 }, difference: { ...empty, excludesZero: false }, reason: null }, 'episode.policyTokens': { value: empty, difference: { ...empty, excludesZero: false }, reason: 'Not measured by graph-menu with this policy' } }),
    row(1, 'oracle, "gold"', { 'sp.recall': { value: { mean: 1, lower: 1, upper: 1, count: 5 }, difference: { mean: 0.7, lower: 0.5, upper: 0.9, count: 5, excludesZero: true }, reason: null }, 'episode.policyTokens': { value: empty, difference: { ...empty, excludesZero: false }, reason: 'Not measured by graph-menu with this policy' } }, 2),
  ],
}

describe('ablation exports', () => {
  it('writes the table as CSV with raw numbers, quoted labels and the reason of an empty cell', () => {
    const lines = resultsCsv(results, describeMetric).trim().split('\n')
    expect(lines).toHaveLength(5)
    expect(lines[3]).toBe('1,"oracle, ""gold""",g,graph-menu,sp.recall,SP recall,1,1,1,5,0.7,0.5,0.9,5,true,2,')
    expect(lines[2]).toMatch(/,Not measured by graph-menu with this policy$/)
  })

  it('writes Markdown in the pages\' units with the excludes-zero marker and missing pairs', () => {
    const text = resultsMarkdown('demo', results, describeMetric)
    expect(text).toContain('## SP recall')
    expect(text).toContain('| oracle, "gold" | 100.0% | +70.0 pp * | +50.0 … +90.0 pp | 5 | 2 base pairs missing |')
    expect(text).toContain('| base | 30.0% | base |')
    expect(text).toContain('Not measured by graph-menu with this policy')
  })
})
