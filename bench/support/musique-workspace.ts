import { environmentContext } from '../../main/harness'
import { join } from 'node:path'
import { workspaceMigrations } from '../../main/db/migrations'
import { openDatabase, type OpenedDatabase } from '../../main/db/open'
import { loadQuestions, type StoredQuestion } from '../../main/experiments/questions'
import type { EnvContext } from '../../main/harness/types'
import { defaultIngestOptions, runIngest } from '../../main/ingest/run'
import { quiet } from './corpus'
import { tempDir } from './services'

/** A MuSiQue-format set whose titles repeat with different texts (one supporting, one not), written for these tests. */
export const MUSIQUE_REPEATED_TITLES = new URL('../../test/fixtures/gold/musique-repeated-titles.jsonl', import.meta.url).pathname

export interface MuSiQueWorkspace {
  db: OpenedDatabase<unknown>
  ctx: EnvContext
  questions: StoredQuestion[]
  /** documents.id by external id ("Kelby", "Kelby (2)", ...). */
  documentId(externalId: string): number
  /** The first chunk of a document, by external id. */
  chunkId(externalId: string): number
  /** The document's sentences (ids, in order), by external id. */
  sentenceIds(externalId: string): number[]
  close(): Promise<void>
}

/** The fixture imported through the real MuSiQue importer into a real workspace, environments registered. */
export async function openMuSiQueWorkspace(): Promise<MuSiQueWorkspace> {
  const tmp = tempDir('harness-lab-musique-')
  const db = await openDatabase(join(tmp.dir, 'workspace.db'), workspaceMigrations)
  await runIngest(db.raw, { kind: 'benchmark', benchmark: 'musique', questionsFile: MUSIQUE_REPEATED_TITLES }, defaultIngestOptions(), quiet)
  const documentId = (externalId: string): number => {
    const id = db.raw.prepare('select id from documents where external_id = ?').pluck().get(externalId) as number | undefined
    if (id === undefined) throw new Error(`no document with external id ${externalId}`)
    return id
  }
  return {
    db,
    ctx: environmentContext(db.raw),
    questions: loadQuestions(db.raw, { questionSetId: 1, limit: 1000 }),
    documentId,
    chunkId: (externalId) => db.raw.prepare('select id from chunks where document_id = ? order by ord limit 1').pluck().get(documentId(externalId)) as number,
    sentenceIds: (externalId) => db.raw.prepare('select id from sentences where document_id = ? order by ord').pluck().all(documentId(externalId)) as number[],
    close: async () => {
      await db.close()
      tmp.cleanup()
    },
  }
}
