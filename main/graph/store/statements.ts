import type BetterSqlite3 from 'better-sqlite3'

/**
 * Prepared statements cached per connection: the browser asks for neighbourhoods one click at a
 * time, and re-preparing the same SQL on every click is wasted work.
 */
const cache = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>()

export function prepared(raw: BetterSqlite3.Database, sql: string): BetterSqlite3.Statement {
  let byText = cache.get(raw)
  if (!byText) cache.set(raw, (byText = new Map()))
  let stmt = byText.get(sql)
  if (!stmt) byText.set(sql, (stmt = raw.prepare(sql)))
  return stmt
}

/** Row ids as one JSON parameter, read in SQL with `in (select value from json_each(?))`. */
export function idList(ids: Iterable<number>): string {
  return JSON.stringify(Array.from(ids))
}
