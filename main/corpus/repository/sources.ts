/** The corpus's source files and its size: what the Corpus page lists and counts, and what a run's corpus signature hashes. */
import { sql, type Kysely } from 'kysely'
import { workspaceQuery } from '../../db/query'
import type { WorkspaceDatabase } from '../../db/schema'
import type { WorkspaceHandle } from './statements'

const FILE = ['id', 'path', 'format', 'size_bytes as sizeBytes', 'status', 'error_reason as errorReason', 'error', 'document_count as documentCount', 'ingested_at as ingestedAt'] as const
// Failed files first: problems are seen.
const files = (db: Kysely<WorkspaceDatabase>) => db.selectFrom('source_files').select(FILE).orderBy(sql`status = 'ok'`).orderBy('path')
const allFiles = workspaceQuery((db, p: { limit: number }) => files(db).limit(p.limit))
const filesByStatus = workspaceQuery((db, p: { status: 'ok' | 'failed'; limit: number }) => files(db).where('status', '=', p.status).limit(p.limit))
const okFileHashes = workspaceQuery((db) => db.selectFrom('source_files').select(sql<string>`path || '=' || sha256`.as('file')).where('status', '=', sql.lit('ok')).orderBy('path'))
const metaValue = workspaceQuery((db, p: { key: string }) => db.selectFrom('meta').select('value').where('key', '=', p.key))
const sizes = workspaceQuery((db) =>
  db.selectNoFrom((eb) => [
    eb.selectFrom('source_files').select((e) => e.fn.countAll<number>().as('n')).as('files'),
    eb.selectFrom('source_files').select((e) => e.fn.countAll<number>().as('n')).where('status', '=', sql.lit('failed')).as('failedFiles'),
    eb.selectFrom('documents').select((e) => e.fn.countAll<number>().as('n')).as('documents'),
    eb.selectFrom('chunks').select((e) => e.fn.countAll<number>().as('n')).as('chunks'),
    eb.selectFrom('sentences').select((e) => e.fn.countAll<number>().as('n')).as('sentences'),
    eb.selectFrom('documents').select(sql<number>`coalesce(sum(token_count), 0)`.as('n')).as('tokens'),
    eb.selectFrom('entities').select((e) => e.fn.countAll<number>().as('n')).as('entities'),
    eb.selectFrom('entities').select((e) => e.fn.countAll<number>().as('n')).where('lookup_ok', '=', sql.lit(1)).as('lookupEntities'),
    eb.selectFrom('mentions').select((e) => e.fn.countAll<number>().as('n')).as('mentions'),
    // Each document of n sentences has n - 1 next-sentence edges.
    eb.selectFrom(db.selectFrom('sentences').select((e) => e.fn.countAll<number>().as('n')).groupBy('document_id').as('d')).select(sql<number>`coalesce(sum(n - 1), 0)`.as('n')).as('nextEdges'),
    eb.selectFrom('entity_links').select((e) => e.fn.countAll<number>().as('n')).as('neighbourEdges'),
    eb.selectFrom('question_sets').select((e) => e.fn.countAll<number>().as('n')).as('questionSets'),
    eb.selectFrom('questions').select((e) => e.fn.countAll<number>().as('n')).as('questions'),
  ]),
)

export class SourceRepository {
  private readonly s

  constructor(raw: WorkspaceHandle) {
    this.s = { allFiles: allFiles(raw), filesByStatus: filesByStatus(raw), okFileHashes: okFileHashes(raw), metaValue: metaValue(raw), sizes: sizes(raw) }
  }

  /** Source files, failed first, then by path (only those of `status` when given). */
  files(filter: { status?: 'ok' | 'failed'; limit: number }) {
    return filter.status ? this.s.filesByStatus.all({ status: filter.status, limit: filter.limit }) : this.s.allFiles.all({ limit: filter.limit })
  }

  /** "path=sha256" of every file ingested whole, by path. */
  okFileHashes(): string[] {
    return this.s.okFileHashes.values()
  }

  /** A value of the workspace's meta table (the chunking settings, ...), or undefined. */
  meta(key: string): string | undefined {
    return this.s.metaValue.value({ key })
  }

  /** Row counts of the corpus, its graph and its questions (each 0 when empty). */
  sizes(): Record<keyof RowOfSizes, number> {
    const row = this.s.sizes.get()!
    return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v ?? 0)])) as Record<keyof RowOfSizes, number>
  }
}

type RowOfSizes = NonNullable<ReturnType<ReturnType<typeof sizes>['get']>>
