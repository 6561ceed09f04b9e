import type SQLite from 'better-sqlite3'
import type { CorpusStats, Question, SourceFile } from '../../preload/contract'
import { corpusRepositories, type QuestionSetSummary } from './repository'

const count = (raw: SQLite.Database, sql: string): number => Number(raw.prepare(sql).pluck().get() ?? 0)

/** Read-side queries over a workspace corpus for the API: counts, files, question sets. */
export function corpusStats(raw: SQLite.Database): CorpusStats {
  const chunking = raw.prepare("select value from meta where key = 'chunking'").pluck().get() as string | undefined
  return {
    files: count(raw, 'select count(*) from source_files'),
    failedFiles: count(raw, "select count(*) from source_files where status = 'failed'"),
    documents: count(raw, 'select count(*) from documents'),
    chunks: count(raw, 'select count(*) from chunks'),
    sentences: count(raw, 'select count(*) from sentences'),
    tokens: count(raw, 'select coalesce(sum(token_count), 0) from documents'),
    entities: count(raw, 'select count(*) from entities'),
    lookupEntities: count(raw, 'select count(*) from entities where lookup_ok = 1'),
    mentions: count(raw, 'select count(*) from mentions'),
    // Each document of n sentences has n - 1 next-sentence edges; every sentence has one edge to its paragraph.
    nextEdges: count(raw, 'select coalesce(sum(n - 1), 0) from (select count(*) as n from sentences group by document_id)'),
    inEdges: count(raw, 'select count(*) from sentences'),
    neighbourEdges: count(raw, 'select count(*) from entity_links'),
    questionSets: count(raw, 'select count(*) from question_sets'),
    questions: count(raw, 'select count(*) from questions'),
    chunking: chunking ? (JSON.parse(chunking) as CorpusStats['chunking']) : null,
  }
}

export function sourceFiles(raw: SQLite.Database, filter: { status?: 'ok' | 'failed'; limit: number }): SourceFile[] {
  const rows = raw
    .prepare(
      `select id, path, format, size_bytes, status, error_reason, error, document_count, ingested_at from source_files
       ${filter.status ? 'where status = @status' : ''} order by status = 'ok', path limit @limit`, // failed files first: problems are seen
    )
    .all({ ...(filter.status ? { status: filter.status } : {}), limit: filter.limit }) as Record<string, unknown>[]
  return rows.map((r) => ({
    id: r.id as number,
    path: r.path as string,
    format: r.format as string,
    sizeBytes: r.size_bytes as number,
    status: r.status as 'ok' | 'failed',
    errorReason: r.error_reason as string | null,
    error: r.error as string | null,
    documentCount: r.document_count as number,
    ingestedAt: r.ingested_at as string,
  }))
}

/** The workspace's question sets, each with its stored splits (what evaluations and training runs choose from). */
export function questionSets(raw: SQLite.Database): (QuestionSetSummary & { splits: { name: string; count: number }[] })[] {
  const questions = corpusRepositories(raw).questions
  return questions.sets().map((s) => ({ ...s, splits: questions.splitCounts(s.id) }))
}

export function questionsOf(raw: SQLite.Database, setId: number, offset: number, limit: number): { total: number; questions: Question[] } {
  const questions = corpusRepositories(raw).questions
  return {
    total: questions.count(setId),
    questions: questions.page(setId, offset, limit).map((r) => ({
      id: r.id,
      externalId: r.external_id,
      question: r.question,
      answers: JSON.parse(r.answers_json) as string[],
      type: r.type,
      supportingFacts: JSON.parse(r.supporting_facts_json) as Question['supportingFacts'],
      supportingDocs: JSON.parse(r.supporting_docs_json) as string[],
    })),
  }
}
