import type BetterSqlite3 from 'better-sqlite3'
import type { NodeRef } from './node-id'
import { ENTITY_DEGREE, PARAGRAPH_DEGREE, SENTENCE_DEGREE } from './nodes'
import { prepared } from './statements'
import type { NodeKind } from './types'
import { nextSentence, previousSentence } from './relations'

/**
 * A node one edge away from an expanded node. Priority when the cap bites: lower tier first
 * (structure: a sentence's paragraph and adjacent sentences, a paragraph's sentences; then the
 * entity's own neighbour links; then mentions, which are the unbounded fan-out of hub entities),
 * then higher weight (link score, otherwise degree), then kind and row id so equal ties never
 * depend on SQLite's row order.
 */
export interface Candidate {
  ref: NodeRef
  tier: number
  weight: number
}

/** Already-visited row ids per kind, as JSON arrays for `json_each`. */
export type Excluded = Record<NodeKind, string>

const KIND_ORDER: Record<NodeKind, number> = { paragraph: 0, sentence: 1, entity: 2 }

export function byPriority(a: Candidate, b: Candidate): number {
  return (
    a.tier - b.tier ||
    b.weight - a.weight ||
    KIND_ORDER[a.ref.kind] - KIND_ORDER[b.ref.kind] ||
    a.ref.rowId - b.ref.rowId
  )
}

const NOT_SEEN = 'not in (select value from json_each(?))'

const SQL = {
  paragraphSentences: `select s.id, ${SENTENCE_DEGREE} as w from sentences s
    where s.chunk_id = ? and s.id ${NOT_SEEN} order by w desc, s.id limit ?`,
  sentenceParagraph: `select c.id, ${PARAGRAPH_DEGREE} as w from sentences t join chunks c on c.id = t.chunk_id
    where t.id = ? and c.id ${NOT_SEEN}`,
  sentenceAdjacent: `select s.id, ${SENTENCE_DEGREE} as w from sentences t
    join sentences s on (${previousSentence('t', 's')}) or (${nextSentence('t', 's')})
    where t.id = ? and s.id ${NOT_SEEN}`,
  sentenceEntities: `select e.id, ${ENTITY_DEGREE} as w from entities e
    where e.id in (select m.entity_id from mentions m where m.sentence_id = ?) and e.id ${NOT_SEEN}
    order by w desc, e.id limit ?`,
  entityLinks: `select l.target_id as id, l.score as w from entity_links l
    where l.source_id = ? and l.target_id ${NOT_SEEN} order by w desc, l.target_id limit ?`,
  entitySentences: `select s.id, ${SENTENCE_DEGREE} as w from sentences s
    where s.id in (select m.sentence_id from mentions m where m.entity_id = ?) and s.id ${NOT_SEEN}
    order by w desc, s.id limit ?`,
}

type Row = { id: number; w: number }

/** The best `limit` unvisited neighbours of one node, best first. */
export function neighbourCandidates(raw: BetterSqlite3.Database, ref: NodeRef, excluded: Excluded, limit: number): Candidate[] {
  if (limit <= 0) return []
  const out: Candidate[] = []
  const add = (rows: unknown[], kind: NodeKind, tier: number): void => {
    for (const r of rows as Row[]) out.push({ ref: { kind, rowId: r.id }, tier, weight: r.w })
  }
  const id = ref.rowId
  if (ref.kind === 'paragraph') {
    add(prepared(raw, SQL.paragraphSentences).all(id, excluded.sentence, limit), 'sentence', 0)
  } else if (ref.kind === 'sentence') {
    add(prepared(raw, SQL.sentenceParagraph).all(id, excluded.paragraph), 'paragraph', 0)
    add(prepared(raw, SQL.sentenceAdjacent).all(id, excluded.sentence), 'sentence', 0)
    add(prepared(raw, SQL.sentenceEntities).all(id, excluded.entity, limit), 'entity', 2)
  } else {
    add(prepared(raw, SQL.entityLinks).all(id, excluded.entity, limit), 'entity', 1)
    add(prepared(raw, SQL.entitySentences).all(id, excluded.sentence, limit), 'sentence', 2)
  }
  return out.sort(byPriority).slice(0, limit)
}
