/** The `data_source` of dataset exports: the benchmark names Search-R1's and verl's default rewards dispatch on, else harness-lab/<set>. */
import { describe, expect, it } from 'vitest'
import { benchmarkOf, dataSourceOf, datasetPrompt } from '../../main/exports/formats/question-datasets'

describe('dataset export data_source', () => {
  it('names the benchmark from the ingest source or the set name, per trainer convention', () => {
    expect(dataSourceOf({ name: 'HotpotQA dev', source: 'hotpotqa' }, 'verl')).toBe('searchR1_hotpotqa')
    expect(dataSourceOf({ name: 'HotpotQA dev', source: 'hotpotqa' }, 'search-r1')).toBe('hotpotqa')
    expect(dataSourceOf({ name: '2Wiki pilot', source: '2wikimultihopqa' }, 'verl')).toBe('searchR1_2wikimultihopqa')
    expect(dataSourceOf({ name: 'MuSiQue-Ans', source: 'musique' }, 'search-r1')).toBe('musique')
    expect(dataSourceOf({ name: 'nq', source: 'flashrag' }, 'verl')).toBe('searchR1_nq')
    expect(benchmarkOf({ name: 'Demo world', source: 'demo-world' })).toBeNull()
    expect(dataSourceOf({ name: 'Demo world', source: 'demo-world' }, 'verl')).toBe('harness-lab/demo-world')
    expect(dataSourceOf({ name: 'My set!', source: 'import:jsonl:x.jsonl' }, 'search-r1')).toBe('harness-lab/my-set')
  })

  it("asks for <answer> tags in the Search-R1 prompt (its scorer reads them), not in the plain one", () => {
    expect(datasetPrompt(' Who? ', 'search-r1')[0]!.content).toMatch(/<answer>[\s\S]*Question: Who\?$/)
    expect(datasetPrompt('Who?', 'plain')[0]!.content).not.toContain('<answer>')
  })
})
