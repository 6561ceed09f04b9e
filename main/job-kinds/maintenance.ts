import { databaseBytes } from '../db/file-size'
import { defineJobKind } from '../jobs/define-job-kind'
import { formatBytes } from '../text/bytes'

/**
 * Integrity check (table by table, so progress and cancellation have a grain), foreign-key check,
 * then VACUUM and a WAL checkpoint. Every step is a SQLite statement: killing the thread mid-way
 * leaves the database as SQLite's journal guarantees, never half-written.
 */
export const maintenanceJob = defineJobKind({
  kind: 'db.maintenance',
  run: async (ctx, { params, db: { raw: db }, workspaceDbFile: file }) => {
    const sizeBefore = databaseBytes(file)
    const tables = db
      .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name")
      .pluck()
      .all() as string[]
    const problems: string[] = []
    const checkShare = params.vacuum ? 0.7 : 0.95
    ctx.progress(0, 'integrity', `Checking ${tables.length} tables`)
    for (const [i, table] of tables.entries()) {
      ctx.throwIfCancelled()
      const rows = db.pragma(`integrity_check(${JSON.stringify(table)})`, { simple: false }) as { integrity_check: string }[]
      for (const r of rows) if (r.integrity_check !== 'ok') problems.push(`${table}: ${r.integrity_check}`)
      ctx.progress(((i + 1) / tables.length) * checkShare, 'integrity', `Checked ${table} (${i + 1}/${tables.length})`)
    }
    ctx.throwIfCancelled()
    const fk = db.pragma('foreign_key_check') as { table: string; rowid: number; parent: string }[]
    for (const v of fk) problems.push(`${v.table} row ${v.rowid}: missing parent in ${v.parent}`)
    ctx.progress(checkShare, 'foreign keys', `${fk.length} foreign-key violations`)

    if (params.vacuum) {
      ctx.throwIfCancelled()
      ctx.progress(checkShare, 'vacuum', 'Rebuilding the database file')
      db.exec('VACUUM')
    }
    ctx.throwIfCancelled()
    db.pragma('wal_checkpoint(TRUNCATE)')
    const sizeAfter = databaseBytes(file)
    ctx.progress(1, 'done', 'Finished')
    const message =
      problems.length === 0
        ? `Integrity ok across ${tables.length} tables; ${formatBytes(sizeBefore)} -> ${formatBytes(sizeAfter)}`
        : `${problems.length} integrity problems found`
    return { result: { ok: problems.length === 0, tables: tables.length, problems: problems.slice(0, 100), sizeBefore, sizeAfter }, message }
  },
})
