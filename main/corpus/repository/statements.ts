/**
 * Typed prepared statements over a workspace database: the repositories' one way to run SQL. Each
 * statement is prepared on first use and reused; its bind parameters and its row (or, plucked, its
 * one value) are typed, the rows against main/db/schema.ts.
 *
 * better-sqlite3 is synchronous and the environments read the corpus on every step, so the hot paths
 * stay synchronous prepared statements rather than Kysely's async queries.
 */
import type SQLite from 'better-sqlite3'

/** The workspace database as the repositories take it (callers above pass it through, never query it). */
export type WorkspaceHandle = SQLite.Database

/** A statement typed by its bind parameters and what one row reads as. */
export type Typed<P extends unknown[], R> = SQLite.Statement<P, R>

/** `sql` prepared on first call, then the same statement; `pluck` reads each row's first column. */
export function statement<P extends unknown[], R>(raw: WorkspaceHandle, sql: string, options: { pluck?: boolean } = {}): () => Typed<P, R> {
  let prepared: Typed<P, R> | undefined
  return () => {
    if (!prepared) {
      const s = raw.prepare<P, R>(sql)
      prepared = options.pluck ? s.pluck() : s
    }
    return prepared
  }
}

/** One instance per database handle (repositories and readers are built once per connection). */
export function perHandle<T extends object>(build: (raw: WorkspaceHandle) => T): (raw: WorkspaceHandle) => T {
  const made = new WeakMap<WorkspaceHandle, T>()
  return (raw) => {
    let value = made.get(raw)
    if (!value) {
      value = build(raw)
      made.set(raw, value)
    }
    return value
  }
}
