import type BetterSqlite3 from 'better-sqlite3'

/**
 * Prepared statements cached per connection: the browser asks for neighbourhoods one click at a
 * time, and re-preparing the same SQL on every click is wasted work.
 */
const cache = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>()

/** The statement for `sql`, typed by its caller's bind parameters `P` and row `R` (one SQL text has one shape). */
export function prepared<P extends unknown[] | object = unknown[], R = unknown>(raw: BetterSqlite3.Database, sql: string): BetterSqlite3.Statement<P, R> {
  let byText = cache.get(raw)
  if (!byText) cache.set(raw, (byText = new Map()))
  let stmt = byText.get(sql)
  if (!stmt) byText.set(sql, (stmt = raw.prepare(sql)))
  // The cache is keyed by SQL text, and each text is prepared for one shape: this is that shape.
  return stmt as unknown as BetterSqlite3.Statement<P, R>
}

/** Row ids as one JSON parameter, read in SQL with `in (select value from json_each(?))`. */
export function idList(ids: Iterable<number>): string {
  return JSON.stringify(Array.from(ids))
}
