import type BetterSqlite3 from 'better-sqlite3'
import { nodeId } from './node-id'
import { idList, prepared } from './statements'
import type { GraphEdge } from './types'
import { nextSentence } from './relations'

const IN_SET = 'in (select value from json_each(?))'

// A unary + on the second filtered column keeps SQLite from driving a composite index through
// both id lists, which probes |first list| x |second list| keys (seconds at a few thousand nodes);
// the second list is checked against a hashed copy instead.
const SQL = {
  in: `select s.id as a, s.chunk_id as b from sentences s where s.id ${IN_SET} and s.chunk_id ${IN_SET} order by a`,
  next: `select s.id as a, n.id as b from sentences s
    join sentences n on ${nextSentence('s', 'n')}
    where s.id ${IN_SET} and +n.id ${IN_SET} order by a`,
  mention: `select distinct m.sentence_id as a, m.entity_id as b from mentions m
    where m.sentence_id ${IN_SET} and +m.entity_id ${IN_SET} order by a, b`,
  neighbour: `select l.source_id as a, l.target_id as b, l.score from entity_links l
    where l.source_id ${IN_SET} and +l.target_id ${IN_SET} order by a, b`,
}

type Pair = { a: number; b: number; score?: number }

/** Every graph edge whose two ends are among the given rows, in a fixed order (kind, source, target). */
export function inducedEdges(
  raw: BetterSqlite3.Database,
  rows: { paragraph: readonly number[]; sentence: readonly number[]; entity: readonly number[] },
): GraphEdge[] {
  const p = idList(rows.paragraph)
  const s = idList(rows.sentence)
  const e = idList(rows.entity)
  const edges: GraphEdge[] = []
  const hasSentences = rows.sentence.length > 0
  if (hasSentences && rows.entity.length > 0) {
    for (const r of prepared<[string, string], Pair>(raw, SQL.mention).all(s, e)) {
      edges.push({ source: nodeId('sentence', r.a), target: nodeId('entity', r.b), kind: 'mention' })
    }
  }
  if (hasSentences) {
    for (const r of prepared<[string, string], Pair>(raw, SQL.next).all(s, s)) {
      edges.push({ source: nodeId('sentence', r.a), target: nodeId('sentence', r.b), kind: 'next' })
    }
  }
  if (hasSentences && rows.paragraph.length > 0) {
    for (const r of prepared<[string, string], Pair>(raw, SQL.in).all(s, p)) {
      edges.push({ source: nodeId('sentence', r.a), target: nodeId('paragraph', r.b), kind: 'in' })
    }
  }
  if (rows.entity.length > 1) {
    for (const r of prepared<[string, string], Pair>(raw, SQL.neighbour).all(e, e)) {
      edges.push({ source: nodeId('entity', r.a), target: nodeId('entity', r.b), kind: 'neighbour', score: r.score! })
    }
  }
  return edges
}
