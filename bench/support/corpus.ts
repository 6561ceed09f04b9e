import { environmentContext } from '../../main/harness'
import { join } from 'node:path'
import type SQLite from 'better-sqlite3'
import { workspaceMigrations } from '../../main/db/migrations'
import { openDatabase, type OpenedDatabase } from '../../main/db/open'
import { loadQuestions } from '../../main/experiments/questions'
import type { EnvContext, EnvQuestion } from '../../main/harness/types'
import { defaultIngestOptions, runIngest, type IngestReporter } from '../../main/ingest/run'
import { tempDir } from './services'

/** An ingest reporter for tests: no progress output, never cancelled. */
export const quiet: IngestReporter = { progress: () => undefined, throwIfCancelled: () => undefined }

/** Every stored question of the first question set, as environments take them. */
export function envQuestions(raw: SQLite.Database, setId = 1): EnvQuestion[] {
  return loadQuestions(raw, { questionSetId: setId, limit: 1_000_000 }).map(({ rowId: _rowId, ...q }) => q)
}

export interface DemoWorkspace {
  db: OpenedDatabase<unknown>
  ctx: EnvContext
  questions: EnvQuestion[]
  close(): Promise<void>
}

/** A real workspace database holding a demo world, with the built-in environments registered. */
export async function openDemoWorkspace(seed: number, size: number): Promise<DemoWorkspace> {
  const tmp = tempDir('harness-lab-demo-')
  const db = await openDatabase(join(tmp.dir, 'workspace.db'), workspaceMigrations)
  await runIngest(db.raw, { kind: 'demo', seed, size }, defaultIngestOptions(), quiet)
  return {
    db,
    ctx: environmentContext(db.raw),
    questions: envQuestions(db.raw),
    close: async () => {
      await db.close()
      tmp.cleanup()
    },
  }
}
