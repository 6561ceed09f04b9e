/**
 * Harness-1 recalls for one episode, from chunk ids and a question's gold, at document or fact level.
 * - Document level: gold = the question's supporting documents (titles or external ids); a curated
 *   chunk covers its whole document. Answer-bearing: the document text contains a gold answer.
 * - Fact level: gold = supporting facts [title, sentence ord]; a chunk covers a fact when it holds at
 *   least half of the sentence's characters. Answer-bearing: the sentence contains a gold answer.
 * Gold the corpus does not hold still counts (as never covered): recall is measured against the
 * question, not against what ingest happened to keep. A fact-level request on a question without
 * supporting facts falls back to document level, and says so.
 */
import type SQLite from 'better-sqlite3'
import { documentRecalls, harness1Recalls, type AnswerBearingPredicate, type Harness1Recalls } from '../../eval'
import type { EnvQuestion } from '../../harness/types'

export type RecallLevel = 'document' | 'fact'

export interface EpisodeRecallOptions {
  level?: RecallLevel
  beta?: number
  isAnswerBearing?: AnswerBearingPredicate
}

export interface EpisodeRecalls {
  recalls: Harness1Recalls
  /** The level actually measured. */
  level: RecallLevel
  /** Gold the corpus does not hold, and level fallbacks. */
  notes: string[]
}

interface ChunkSpan {
  id: number
  documentId: number
  start: number
  end: number
}

interface GoldFact {
  key: string
  documentId: number | null
  start: number
  end: number
  text: string
}

export function episodeRecalls(
  raw: SQLite.Database,
  question: EnvQuestion,
  curatedChunkIds: readonly number[],
  seenChunkIds: readonly number[],
  options: EpisodeRecallOptions = {},
): EpisodeRecalls {
  const notes: string[] = []
  let level = options.level ?? 'document'
  if (level === 'fact' && question.supportingFacts.length === 0) {
    notes.push('fact level requested but the question has no supporting facts: measured at document level')
    level = 'document'
  }
  const spans = chunkSpans(raw, [...curatedChunkIds, ...seenChunkIds])
  const curated = curatedChunkIds.map((id) => spans.get(id)).filter((s): s is ChunkSpan => s !== undefined)
  const seen = seenChunkIds.map((id) => spans.get(id)).filter((s): s is ChunkSpan => s !== undefined)

  if (level === 'document') {
    const byTitle = raw.prepare('select id, text from documents where title = ? or external_id = ? order by id limit 1')
    const gold = [...new Set(question.supportingDocs)].map((name) => {
      const row = byTitle.get(name, name) as { id: number; text: string } | undefined
      if (!row) notes.push(`gold document "${name}" is not in the corpus`)
      return row ? { id: String(row.id), text: row.text } : { id: `missing:${name}`, text: '' }
    })
    const recalls = documentRecalls({
      curated: curated.map((c) => String(c.documentId)),
      seen: seen.map((c) => String(c.documentId)),
      gold,
      answers: question.answers,
      ...(options.isAnswerBearing ? { isAnswerBearing: options.isAnswerBearing } : {}),
      ...(options.beta !== undefined ? { beta: options.beta } : {}),
    })
    return { recalls, level, notes }
  }

  const factRow = raw.prepare(
    `select s.document_id as documentId, s.start_char as start, s.end_char as end, s.text as text
     from sentences s join documents d on d.id = s.document_id
     where (d.title = ? or d.external_id = ?) and s.ord = ? order by s.document_id limit 1`,
  )
  const facts: GoldFact[] = []
  const keys = new Set<string>()
  for (const f of question.supportingFacts) {
    const key = `${f.title}\u0000${f.sentence}`
    if (keys.has(key)) continue
    keys.add(key)
    const row = factRow.get(f.title, f.title, f.sentence) as { documentId: number; start: number; end: number; text: string } | undefined
    if (!row) notes.push(`gold sentence ${f.sentence} of "${f.title}" is not in the corpus`)
    facts.push(row ? { key, ...row } : { key, documentId: null, start: 0, end: 0, text: '' })
  }
  const recalls = harness1Recalls<ChunkSpan, GoldFact>({
    curated,
    seen,
    gold: facts,
    answers: question.answers,
    covers: coversFact,
    goldText: (f) => f.text,
    ...(options.isAnswerBearing ? { isAnswerBearing: options.isAnswerBearing } : {}),
    ...(options.beta !== undefined ? { beta: options.beta } : {}),
  })
  return { recalls, level, notes }
}

/** A chunk covers a gold sentence when it holds at least half of its characters. */
function coversFact(chunk: ChunkSpan, fact: GoldFact): boolean {
  if (fact.documentId === null || chunk.documentId !== fact.documentId) return false
  const overlap = Math.min(chunk.end, fact.end) - Math.max(chunk.start, fact.start)
  return overlap > 0 && overlap * 2 >= fact.end - fact.start
}

function chunkSpans(raw: SQLite.Database, ids: readonly number[]): Map<number, ChunkSpan> {
  const unique = [...new Set(ids)]
  if (unique.length === 0) return new Map()
  const rows = raw
    .prepare('select id, document_id as documentId, start_char as start, end_char as end from chunks where id in (select value from json_each(?))')
    .all(JSON.stringify(unique)) as ChunkSpan[]
  return new Map(rows.map((r) => [r.id, r]))
}
