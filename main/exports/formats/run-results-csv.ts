import { csvRecord } from '../csv'
import { defineFormat } from '../format'
import { episodeRecords, metricNamesOf, resultOf, runOrThrow } from '../run-episodes'

/** Per-question results of a run, one row per episode, one column per stored metric (RFC 4180). */
export const runResultsCsv = defineFormat({
  name: 'run-results-csv',
  source: 'run',
  label: 'Results (CSV)',
  description: 'One row per episode: question, answer, gold answers, turns, end reason and every stored metric',
  extension: 'csv',
  contentType: 'text/csv; charset=utf-8',
  write({ raw, out, progress, checkpoint }, { runId, split }) {
    const run = runOrThrow(raw, runId, split)
    const metrics = metricNamesOf(raw, runId)
    out.write(csvRecord(['episode_id', 'run_id', 'question_id', 'train_step', 'seed', 'question', 'answer', 'gold', 'turns', 'format_errors', 'ms', 'end_reason', ...metrics]))
    let rows = 0
    for (const record of episodeRecords(raw, runId, split)) {
      const r = resultOf(record)
      // Several gold answers are joined by " | ", the way the pages show them.
      out.write(csvRecord([r.episodeId, r.runId, r.questionId, r.trainStep, r.seed, r.question, r.answer, r.gold.join(' | '), r.turns, r.formatErrors, r.ms, r.endReason, ...metrics.map((m) => r.metrics[m])]))
      if (++rows % 100 === 0) {
        checkpoint()
        progress(rows, run.episodes)
      }
    }
    return rows
  },
})
