import { defineFormat, jsonLine } from '../format'
import { questionRows, questionSetOrThrow } from '../question-rows'
import { dataSourceOf, flashragRow } from './question-datasets'

/** FlashRAG's file name of a split: its label, or `all` for questions in none (FlashRAG then loads split "all"). */
const fileOfSplit = (split: string | null): string => `${(split ?? 'all').replace(/[^A-Za-z0-9._-]+/g, '_')}.jsonl`

export const questionsFlashragJsonl = defineFormat({
  name: 'questions-flashrag-jsonl',
  source: 'questions',
  label: 'FlashRAG / Search-R1 (JSONL per split)',
  description: 'A folder with <split>.jsonl per split (all.jsonl for questions in none): {id, question, golden_answers, metadata} with the type, gold evidence, data_source and the server key',
  extension: 'jsonl',
  contentType: 'application/x-ndjson; charset=utf-8',
  folder: true,
  write({ raw, fileIn, progress, checkpoint }, { questionSetId }) {
    const set = questionSetOrThrow(raw, questionSetId)
    const source = dataSourceOf(set, 'search-r1')
    let rows = 0
    for (const q of questionRows(raw, questionSetId)) {
      fileIn(fileOfSplit(q.split)).write(jsonLine(flashragRow(q, source)))
      if (++rows % 500 === 0) {
        checkpoint()
        progress(rows, set.questions)
      }
    }
    return rows
  },
})
