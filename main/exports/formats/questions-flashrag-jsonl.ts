import { defineFormat, jsonLine } from '../format'
import { questionRows, questionSetOrThrow, questionSplits } from '../question-rows'
import { dataSourceOf, flashragRow } from './question-datasets'

/**
 * FlashRAG's file name of a split: its label. Questions in no split go to `test.jsonl` when the set has no
 * splits at all (FlashRAG's loader reads `<split>.jsonl` for the splits its config names, `test` among
 * its defaults), else to `all.jsonl` beside the labelled files (load it with `split: ["all"]`).
 */
const fileOfSplit = (split: string | null, unsplitSet: boolean): string => `${(split ?? (unsplitSet ? 'test' : 'all')).replace(/[^A-Za-z0-9._-]+/g, '_')}.jsonl`

export const questionsFlashragJsonl = defineFormat({
  name: 'questions-flashrag-jsonl',
  source: 'questions',
  label: 'FlashRAG / Search-R1 (JSONL per split)',
  description: 'A folder with <split>.jsonl per split (questions in none: test.jsonl in a set without splits, else all.jsonl): {id, question, golden_answers, metadata} with the type, gold evidence, data_source and the server key',
  extension: 'jsonl',
  contentType: 'application/x-ndjson; charset=utf-8',
  folder: true,
  write({ raw, fileIn, progress, checkpoint }, { questionSetId, split }) {
    const set = questionSetOrThrow(raw, questionSetId)
    const unsplitSet = questionSplits(raw, questionSetId).labels.length === 0
    const source = dataSourceOf(set, 'search-r1')
    let rows = 0
    for (const q of questionRows(raw, questionSetId, split)) {
      fileIn(fileOfSplit(q.split, unsplitSet)).write(jsonLine(flashragRow(q, source)))
      if (++rows % 500 === 0) {
        checkpoint()
        progress(rows, set.questions)
      }
    }
    return rows
  },
})
