import { defineFormat, jsonLine } from '../format'
import { episodeRecords, resultOf, runOrThrow } from '../run-episodes'

/** Per-question results of a run as JSON lines (gold answers as a list, metrics as an object). */
export const runResultsJsonl = defineFormat({
  name: 'run-results-jsonl',
  source: 'run',
  label: 'Results (JSONL)',
  description: 'One JSON object per episode: question, answer, gold answers, turns, end reason, metrics',
  extension: 'jsonl',
  contentType: 'application/x-ndjson; charset=utf-8',
  write({ raw, out, progress, checkpoint }, { runId, split }) {
    const run = runOrThrow(raw, runId, split)
    let rows = 0
    for (const record of episodeRecords(raw, runId, split)) {
      out.write(jsonLine(resultOf(record)))
      if (++rows % 100 === 0) {
        checkpoint()
        progress(rows, run.episodes)
      }
    }
    return rows
  },
})
