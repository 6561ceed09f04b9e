/** The SQLite checks and housekeeping the db.maintenance job runs (job-kinds/maintenance.ts). */
import type SQLite from 'better-sqlite3'

interface IntegrityRow {
  integrity_check: string
}
export interface ForeignKeyViolation {
  table: string
  rowid: number
  parent: string
}

/** The database's own tables, by name. */
export const tableNames = (raw: SQLite.Database): string[] =>
  raw.prepare<[], string>("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name").pluck().all()

/** What SQLite's integrity check reports for one table: empty when it is sound. */
export function integrityProblems(raw: SQLite.Database, table: string): string[] {
  const rows = raw.prepare<[], IntegrityRow>(`pragma integrity_check(${JSON.stringify(table)})`).all()
  return rows.map((r) => r.integrity_check).filter((m) => m !== 'ok')
}

export const foreignKeyViolations = (raw: SQLite.Database): ForeignKeyViolation[] => raw.prepare<[], ForeignKeyViolation>('pragma foreign_key_check').all()

/** Rebuilds the file (reclaims the pages deleted rows left). */
export const vacuum = (raw: SQLite.Database): void => void raw.exec('VACUUM')

/** Moves the write-ahead log into the database file and truncates it. */
export const checkpointWal = (raw: SQLite.Database): void => void raw.pragma('wal_checkpoint(TRUNCATE)')
