import { createHash } from 'node:crypto'
import type SQLite from 'better-sqlite3'
import { digestRows } from './digest-queries'

/**
 * Content digests of a workspace's graph, independent of row ids and insertion order: two ingests of
 * the same files (whole, in parts, resumed after a crash, in another order) must give equal digests.
 * Sentences are keyed by file path, document id and ord; entities by type and canonical key (with
 * their display name and LOOKUP flag); mentions by sentence, entity, offsets and surface.
 */
export interface GraphDigest {
  sentences: string
  entities: string
  mentions: string
  counts: { sentences: number; entities: number; mentions: number }
}

function digestOf(rows: Iterable<unknown[]>): { hash: string; rows: number } {
  const hash = createHash('sha256')
  let n = 0
  for (const row of rows) {
    hash.update(JSON.stringify(row))
    hash.update('\n')
    n++
  }
  return { hash: hash.digest('hex'), rows: n }
}

export function graphDigest(raw: SQLite.Database): GraphDigest {
  const sentences = digestOf(digestRows(raw, 'sentences'))
  const entities = digestOf(digestRows(raw, 'entities'))
  const mentions = digestOf(digestRows(raw, 'mentions'))
  return {
    sentences: sentences.hash,
    entities: entities.hash,
    mentions: mentions.hash,
    counts: { sentences: sentences.rows, entities: entities.rows, mentions: mentions.rows },
  }
}
