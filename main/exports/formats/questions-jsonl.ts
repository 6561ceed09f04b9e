import { defineFormat, jsonLine } from '../format'
import { questionRows, questionSetOrThrow } from '../question-rows'
import { dataSourceOf, flashragRow, verlRow } from './question-datasets'

export const questionsFlashragJsonl = defineFormat({
  name: 'questions-flashrag-jsonl',
  source: 'questions',
  label: 'FlashRAG / Search-R1 (JSONL)',
  description: '{id, question, golden_answers, metadata} per question; metadata holds the type, gold evidence and split',
  extension: 'jsonl',
  contentType: 'application/x-ndjson; charset=utf-8',
  write({ raw, out, progress, checkpoint }, { questionSetId }) {
    const set = questionSetOrThrow(raw, questionSetId)
    let rows = 0
    for (const q of questionRows(raw, questionSetId)) {
      out.write(jsonLine(flashragRow(q)))
      if (++rows % 500 === 0) {
        checkpoint()
        progress(rows, set.questions)
      }
    }
    return rows
  },
})

export const questionsVerlJsonl = defineFormat({
  name: 'questions-verl-jsonl',
  source: 'questions',
  label: 'verl rows (JSONL)',
  description: 'data_source, prompt (chat messages), ability, reward_model {style: rule, ground_truth}, extra_info {question_id, split}',
  extension: 'jsonl',
  contentType: 'application/x-ndjson; charset=utf-8',
  write({ raw, out, progress, checkpoint }, { questionSetId }) {
    const set = questionSetOrThrow(raw, questionSetId)
    const source = dataSourceOf(set.name)
    let rows = 0
    for (const q of questionRows(raw, questionSetId)) {
      out.write(jsonLine(verlRow(q, rows, source)))
      if (++rows % 500 === 0) {
        checkpoint()
        progress(rows, set.questions)
      }
    }
    return rows
  },
})
