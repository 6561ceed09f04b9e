/**
 * Typed SQL over better-sqlite3, built with Kysely and run synchronously: Kysely serves as a query
 * builder only (a "cold" instance with a dummy driver, as Kysely's recipe for splitting query building
 * and execution does), each query is compiled once, and better-sqlite3 prepares and runs the compiled
 * SQL. The environments read the corpus on every step, so these paths stay synchronous prepared
 * statements; the columns and the rows are typed by the schema (main/db/schema.ts).
 *
 * A query's bind parameters are named: `defineQuery((db, p: { id: number }) => db.selectFrom(...).where('id', '=', p.id))`
 * compiles with a placeholder for `p.id`, and each run binds the value its caller gives. A parameter
 * stands for one value: a list is bound as JSON and read with json_each.
 */
import type SQLite from 'better-sqlite3'
import { DummyDriver, Kysely, sql, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type Compilable, type InferResult, type RawBuilder } from 'kysely'
import type { AppDatabase, WorkspaceDatabase } from './schema'

function coldKysely<DB>(): Kysely<DB> {
  return new Kysely<DB>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  })
}

const workspaceBuilder = coldKysely<WorkspaceDatabase>()
const appBuilder = coldKysely<AppDatabase>()

/** Stands for a named bind parameter while a query is compiled. */
class Param {
  constructor(readonly key: string) {}
}

type Args<A> = keyof A extends never ? [] : [args: A]

/** A compiled query on one database handle. */
export interface BoundQuery<A, R> {
  all(...args: Args<A>): R[]
  get(...args: Args<A>): R | undefined
  /** The rows one at a time (large reads that would not fit in memory at once). */
  iterate(...args: Args<A>): IterableIterator<R>
  /** The first column of each row. */
  values(...args: Args<A>): R[keyof R][]
  /** The first column of the first row, or undefined when there is no row. */
  value(...args: Args<A>): R[keyof R] | undefined
  run(...args: Args<A>): SQLite.RunResult
}

/** The row a defined query reads. */
export type RowOf<Q> = Q extends (raw: SQLite.Database) => BoundQuery<unknown, infer R> ? R : never

function define<DB, A extends object, C extends Compilable<any>>(builder: Kysely<DB>, build: (db: Kysely<DB>, p: A) => C): (raw: SQLite.Database) => BoundQuery<A, InferResult<C>[number]> {
  type R = InferResult<C>[number]
  let compiled: { sql: string; slots: readonly unknown[] } | undefined
  const compile = () => {
    if (!compiled) {
      const params = new Proxy({}, { get: (_target, key) => new Param(String(key)) }) as A
      const q = build(builder, params).compile()
      compiled = { sql: q.sql, slots: q.parameters }
    }
    return compiled
  }
  const bind = (args: unknown[]): unknown[] => {
    const values = (args[0] ?? {}) as Record<string, unknown>
    return compile().slots.map((slot) => (slot instanceof Param ? values[slot.key] : slot))
  }
  const bound = new WeakMap<SQLite.Database, BoundQuery<A, R>>()
  return (raw) => {
    let q = bound.get(raw)
    if (!q) {
      let statement: SQLite.Statement<unknown[], R> | undefined
      let plucked: SQLite.Statement<unknown[], R[keyof R]> | undefined
      const rows = () => (statement ??= raw.prepare<unknown[], R>(compile().sql))
      const firsts = () => (plucked ??= raw.prepare<unknown[], R[keyof R]>(compile().sql).pluck())
      q = {
        all: (...args) => rows().all(...bind(args)),
        get: (...args) => rows().get(...bind(args)),
        iterate: (...args) => rows().iterate(...bind(args)),
        values: (...args) => firsts().all(...bind(args)),
        value: (...args) => firsts().get(...bind(args)),
        run: (...args) => rows().run(...bind(args)),
      }
      bound.set(raw, q)
    }
    return q
  }
}

/** A query over a workspace database, compiled on first use and prepared once per handle. */
export const workspaceQuery = <A extends object, C extends Compilable<any>>(build: (db: Kysely<WorkspaceDatabase>, p: A) => C) => define(workspaceBuilder, build)
/** A query over the catalogue database (app.db). */
export const appQuery = <A extends object, C extends Compilable<any>>(build: (db: Kysely<AppDatabase>, p: A) => C) => define(appBuilder, build)

/** The values of a JSON array bound as one parameter, as a subquery: `.where('id', 'in', jsonValues<number>(p.ids))`. */
export const jsonValues = <T>(json: string): RawBuilder<T> => sql<T>`(select value from json_each(${json}))`
