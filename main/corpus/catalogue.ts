import type SQLite from 'better-sqlite3'
import type { CorpusStats, Question, SourceFile } from '../../preload/contract'
import { corpusRepositories, questionColumns, questionGold, type QuestionSetSummary } from './repository'

/** Read-side queries over a workspace corpus for the API: counts, files, question sets. */
export function corpusStats(raw: SQLite.Database): CorpusStats {
  const { sources } = corpusRepositories(raw)
  const chunking = sources.meta('chunking')
  const n = sources.sizes()
  return {
    files: n.files,
    failedFiles: n.failedFiles,
    documents: n.documents,
    chunks: n.chunks,
    sentences: n.sentences,
    tokens: n.tokens,
    entities: n.entities,
    lookupEntities: n.lookupEntities,
    mentions: n.mentions,
    nextEdges: n.nextEdges,
    // Every sentence has one edge to its paragraph.
    inEdges: n.sentences,
    neighbourEdges: n.neighbourEdges,
    questionSets: n.questionSets,
    questions: n.questions,
    chunking: questionColumns.chunking.readNullable(chunking),
  }
}

export function sourceFiles(raw: SQLite.Database, filter: { status?: 'ok' | 'failed'; limit: number }): SourceFile[] {
  return corpusRepositories(raw).sources.files(filter)
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
      type: r.type,
      ...questionGold(r),
    })),
  }
}
