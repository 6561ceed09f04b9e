import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, Migrator, SqliteDialect, type Migration, type MigrationResult } from 'kysely'
import { InCodeMigrations } from './migrations'
import { nativeBindingPath } from './native-binding'

export interface OpenedDatabase<DB> {
  db: Kysely<DB>
  /** The raw connection, for pragmas, FTS5 and bulk statements Kysely does not model. */
  raw: SQLite.Database
  file: string
  close(): Promise<void>
}

/** Opens (creating if needed) a SQLite file with WAL and foreign keys on. */
export interface OpenOptions {
  readonly?: boolean
  /**
   * How long a write waits for another connection's write to end. Jobs run in parallel, so a job's
   * connection waits long (another job may hold the write lock through a large batch); the app's
   * main thread keeps the short default, since it blocks while it waits.
   */
  busyTimeoutMs?: number
}

export function openSqlite(file: string, options: OpenOptions = {}): SQLite.Database {
  if (!options.readonly) mkdirSync(dirname(file), { recursive: true })
  const nativeBinding = nativeBindingPath()
  const raw = new SQLite(file, { readonly: options.readonly ?? false, ...(nativeBinding ? { nativeBinding } : {}) })
  raw.pragma(`busy_timeout = ${Math.max(0, Math.round(options.busyTimeoutMs ?? 5000))}`)
  if (!options.readonly) raw.pragma('journal_mode = WAL')
  raw.pragma('foreign_keys = ON')
  raw.pragma('synchronous = NORMAL')
  return raw
}

export async function openDatabase<DB>(file: string, migrations: Record<string, Migration>, options: Omit<OpenOptions, 'readonly'> = {}): Promise<OpenedDatabase<DB>> {
  const raw = openSqlite(file, options)
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: raw }) })
  try {
    await migrate(db, migrations)
  } catch (err) {
    await db.destroy()
    throw err
  }
  return { db, raw, file, close: () => db.destroy() }
}

/** Applies pending migrations; applying again is a no-op. Throws with the failing migration's name. */
export async function migrate(db: Kysely<any>, migrations: Record<string, Migration>): Promise<MigrationResult[]> {
  const migrator = new Migrator({ db, provider: new InCodeMigrations(migrations) })
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`)
  }
  return results ?? []
}
