import type SQLite from 'better-sqlite3'
import { loadQuestions } from '../../main/experiments/questions'
import type { EnvQuestion } from '../../main/harness/types'
import type { IngestReporter } from '../../main/ingest/run'

/** An ingest reporter for tests: no progress output, never cancelled. */
export const quiet: IngestReporter = { progress: () => undefined, throwIfCancelled: () => undefined }

/** Every stored question of the first question set, as environments take them. */
export function envQuestions(raw: SQLite.Database, setId = 1): EnvQuestion[] {
  return loadQuestions(raw, setId, 0, 1_000_000).map(({ rowId: _rowId, ...q }) => q)
}
