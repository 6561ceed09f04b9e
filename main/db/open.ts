import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, Migrator, sql, SqliteDialect, type Migration, type MigrationResult } from 'kysely'
import { InCodeMigrations } from './migrations'
import { nativeBindingPath } from './native-binding'
import { notWritable } from './storage-error'

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
  const raw = options.readonly ? openReadOnly(file, nativeBinding) : new SQLite(file, { ...(nativeBinding ? { nativeBinding } : {}) })
  raw.pragma(`busy_timeout = ${Math.max(0, Math.round(options.busyTimeoutMs ?? 5000))}`)
  if (!options.readonly) enableWal(raw)
  raw.pragma('foreign_keys = ON')
  raw.pragma('synchronous = NORMAL')
  return raw
}

/** How long switching a new file to WAL retries while other processes switch it too. */
const WAL_SWITCH_WAIT_MS = 120_000

/**
 * Switches the file to WAL (a no-op once it is). On a new file several processes opening it at once each
 * read it (shared lock) and then need it exclusively to convert it; SQLite answers that deadlock with
 * SQLITE_BUSY at once, without the busy handler (reproduced: 2 of ~300 concurrent opens under load). The one that
 * lost retries after a pause, by when the winner has converted the file.
 */
function enableWal(raw: SQLite.Database): void {
  const deadline = Date.now() + WAL_SWITCH_WAIT_MS
  for (;;) {
    try {
      raw.pragma('journal_mode = WAL')
      return
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw err
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10 + Math.random() * 40)
    }
  }
}

/**
 * A WAL database opened read-only. SQLite reads one in place while its -wal and -shm files exist or can be
 * made; on a read-only folder after a clean close they are gone and cannot be made (SQLITE_CANTOPEN), and
 * this build of SQLite takes no `immutable=1` URI (SQLITE_USE_URI=0): the file is then read into memory
 * whole (a clean close checkpointed every page into it, and no -wal file is left), opened read-only there.
 */
function openReadOnly(file: string, nativeBinding: string | undefined): SQLite.Database {
  const binding = nativeBinding ? { nativeBinding } : {}
  let raw: SQLite.Database | undefined
  try {
    raw = new SQLite(file, { readonly: true, fileMustExist: true, ...binding })
    raw.prepare('select count(*) from sqlite_master').get()
    return raw
  } catch (err) {
    // The handle opened before the first read failed: closed here, not left to the garbage collector (its
    // descriptor would keep the file, and a mount holding it, busy until then).
    raw?.close()
    const cannotOpen = (err as { code?: string }).code === 'SQLITE_CANTOPEN'
    if (!cannotOpen || !existsSync(file) || existsSync(`${file}-wal`) || notWritable(dirname(file)) === null) throw err
    const image = readFileSync(file)
    // Header bytes 18-19 (write and read format version) say WAL (2): an in-memory copy reads as a rollback-journal database (1).
    if (image.length >= 100) image[18] = image[19] = 1
    return new SQLite(image, { readonly: true, ...binding })
  }
}

/**
 * Opens a database and brings its schema up to date. `readonly`: opened without writing anything (no
 * migration, no journal change); a database whose schema is behind this app's is refused, naming the file.
 */
export async function openDatabase<DB>(file: string, migrations: Record<string, Migration>, options: OpenOptions = {}): Promise<OpenedDatabase<DB>> {
  const raw = openSqlite(file, options)
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: raw }) })
  try {
    if (options.readonly) checkCurrent(raw, file, migrations)
    else await migrate(db, migrations)
  } catch (err) {
    await db.destroy()
    throw err
  }
  return { db, raw, file, close: () => db.destroy() }
}

/** The migrations not yet applied, in order. */
const pendingMigrations = (applied: string[], migrations: Record<string, Migration>): string[] => {
  const done = new Set(applied)
  return Object.keys(migrations).filter((name) => !done.has(name))
}

/** A read-only database must already carry every migration: it cannot be brought up to date. */
function checkCurrent(raw: SQLite.Database, file: string, migrations: Record<string, Migration>): void {
  const table = raw.prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'").get()
  const pending = pendingMigrations(table ? raw.prepare<[], string>('select name from kysely_migration').pluck().all() : [], migrations)
  if (pending.length > 0) {
    throw Object.assign(new Error(`${file} is opened read-only and its schema is behind this app's (${pending.length} migration${pending.length === 1 ? '' : 's'} to apply, from ${pending[0]}): open it once where it can be written`), { code: 'SQLITE_READONLY' })
  }
}

/** How long a first open waits for another process migrating the same new file. */
const MIGRATION_WAIT_MS = 120_000

async function appliedMigrations(db: Kysely<any>): Promise<string[]> {
  const table = await sql`select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'`.execute(db)
  return table.rows.length ? (await sql<{ name: string }>`select name from kysely_migration`.execute(db)).rows.map((r) => r.name) : []
}

/**
 * Applies pending migrations; applying again is a no-op. Throws with the failing migration's name.
 *
 * Kysely's SQLite adapter takes no migration lock (it assumes one process), so two processes opening a new
 * data folder at once (two CLI commands, the app and a CLI) both saw migration 1 pending and the second
 * failed on "table already exists". The whole run is one IMMEDIATE transaction on this connection (Kysely's
 * SQLite driver runs every statement on it): the write lock is taken before the applied list is read, a
 * second process waits for it (busy timeout) and then finds nothing pending, and a failing migration leaves
 * the schema as it was.
 */
export async function migrate(db: Kysely<any>, migrations: Record<string, Migration>): Promise<MigrationResult[]> {
  // Up to date (every open but the first): no write lock, so opening never waits on another connection's write.
  if (pendingMigrations(await appliedMigrations(db), migrations).length === 0) return []
  const migrator = new Migrator({ db, provider: new InCodeMigrations(migrations) })
  const busy = await sql<{ timeout: number }>`pragma busy_timeout`.execute(db)
  const timeout = Number(busy.rows[0]?.timeout ?? 5000)
  await sql.raw(`pragma busy_timeout = ${Math.max(timeout, MIGRATION_WAIT_MS)}`).execute(db)
  try {
    await sql`begin immediate`.execute(db)
  } finally {
    await sql.raw(`pragma busy_timeout = ${timeout}`).execute(db)
  }
  let outcome: Awaited<ReturnType<Migrator['migrateToLatest']>>
  try {
    outcome = await migrator.migrateToLatest()
  } catch (err) {
    await sql`rollback`.execute(db)
    throw err
  }
  await sql.raw(outcome.error ? 'rollback' : 'commit').execute(db)
  const { error, results } = outcome
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`)
  }
  return results ?? []
}
