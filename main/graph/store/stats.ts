import type BetterSqlite3 from 'better-sqlite3'
import { nextSentence } from './relations'

export interface GraphStats {
  documents: number
  /** Paragraph nodes. */
  chunks: number
  /** Sentence nodes. */
  sentences: number
  /** Sum of documents.token_count (the ingest tokenizer's count). */
  tokens: number
  entities: { total: number; lookupOk: number; byType: Record<string, number> }
  /** Mention rows; one sentence may mention an entity more than once. */
  mentions: number
  /** Graph edges by kind; `mention` counts distinct (sentence, entity) pairs. */
  edges: { mention: number; next: number; in: number; neighbour: number; total: number }
  /** paragraphs + sentences + entities. */
  nodes: number
}

const count = (raw: BetterSqlite3.Database, sql: string): number => (raw.prepare(sql).pluck().get() as number | null) ?? 0

/** Sizes of the corpus and its graph, read in one snapshot. */
export function graphStats(raw: BetterSqlite3.Database): GraphStats {
  return raw.transaction((): GraphStats => {
    const byType: Record<string, number> = {}
    for (const r of raw.prepare('select type, count(*) as n from entities group by type order by type').all() as { type: string; n: number }[]) {
      byType[r.type] = r.n
    }
    const chunks = count(raw, 'select count(*) from chunks')
    const sentences = count(raw, 'select count(*) from sentences')
    const entities = count(raw, 'select count(*) from entities')
    const edges = {
      mention: count(raw, 'select count(*) from (select distinct sentence_id, entity_id from mentions)'),
      next: count(raw, `select count(*) from sentences s join sentences n on ${nextSentence('s', 'n')}`),
      in: sentences,
      neighbour: count(raw, 'select count(*) from entity_links'),
      total: 0,
    }
    edges.total = edges.mention + edges.next + edges.in + edges.neighbour
    return {
      documents: count(raw, 'select count(*) from documents'),
      chunks,
      sentences,
      tokens: count(raw, 'select sum(token_count) from documents'),
      entities: { total: entities, lookupOk: count(raw, 'select count(*) from entities where lookup_ok = 1'), byType },
      mentions: count(raw, 'select count(*) from mentions'),
      edges,
      nodes: chunks + sentences + entities,
    }
  })()
}
