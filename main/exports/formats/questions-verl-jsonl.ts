import { defineFormat, jsonLine } from '../format'
import { questionRows, questionSetOrThrow } from '../question-rows'
import { dataSourceOf, verlRow } from './question-datasets'

export const questionsVerlJsonl = defineFormat({
  name: 'questions-verl-jsonl',
  source: 'questions',
  // JSON lines under .json: verl's RLHFDataset reads .parquet and .json only (datasets' json loader reads lines).
  label: 'verl rows (JSON lines, .json)',
  description: 'data_source, prompt (chat messages), ability, reward_model {style: rule, ground_truth}, extra_info {question_id, set, split, index}',
  extension: 'json',
  contentType: 'application/x-ndjson; charset=utf-8',
  write({ raw, out, progress, checkpoint }, { questionSetId, split }) {
    const set = questionSetOrThrow(raw, questionSetId)
    const source = dataSourceOf(set, 'verl')
    let rows = 0
    for (const q of questionRows(raw, questionSetId, split)) {
      out.write(jsonLine(verlRow(q, source, 'plain')))
      if (++rows % 500 === 0) {
        checkpoint()
        progress(rows, set.questions)
      }
    }
    return rows
  },
})
