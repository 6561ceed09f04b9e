/** The entity_links table as the link computation reads and replaces it (graph/links/compute.ts). */
import type BetterSqlite3 from 'better-sqlite3'
import { sql } from 'kysely'
import { workspaceQuery } from '../../db/query'

const lookupEntities = workspaceQuery((db) => db.selectFrom('entities').select(['id', 'name']).where('lookup_ok', '=', sql.lit(1)).orderBy('id'))
const clearLinks = workspaceQuery((db) => db.deleteFrom('entity_links'))
const insertLink = workspaceQuery((db, p: { source: number; target: number; score: number; method: string }) =>
  db.insertInto('entity_links').values({ source_id: p.source, target_id: p.target, score: p.score, method: p.method }),
)

/** Entities that may be LOOKUP targets, by id: the rows links are computed between. */
export const linkableEntities = (raw: BetterSqlite3.Database): { id: number; name: string }[] => lookupEntities(raw).all()

/**
 * Replaces every entity link with those `write` adds, in one IMMEDIATE transaction: readers see the
 * old links or the new ones, never a mix.
 */
export function replaceEntityLinks(raw: BetterSqlite3.Database, write: (add: (source: number, target: number, score: number, method: string) => void) => void): void {
  const insert = insertLink(raw)
  raw
    .transaction(() => {
      clearLinks(raw).run()
      write((source, target, score, method) => insert.run({ source, target, score, method }))
    })
    .immediate()
}
