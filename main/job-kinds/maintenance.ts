import { databaseBytes } from '../db/file-size'
import { checkpointWal, foreignKeyViolations, integrityProblems, tableNames, vacuum } from '../db/maintenance'
import { defineJobKind } from '../jobs/define-job-kind'
import { formatBytes } from '../../common'

/**
 * Integrity check (table by table, so progress and cancellation have a grain), foreign-key check,
 * then VACUUM and a WAL checkpoint. Every step is a SQLite statement: killing the thread mid-way
 * leaves the database as SQLite's journal guarantees, never half-written.
 */
export const maintenanceJob = defineJobKind({
  kind: 'db.maintenance',
  run: async (ctx, { params, db: { raw: db }, workspaceDbFile: file }) => {
    const sizeBefore = databaseBytes(file)
    const tables = tableNames(db)
    const problems: string[] = []
    const checkShare = params.vacuum ? 0.7 : 0.95
    ctx.progress(0, 'integrity', `Checking ${tables.length} tables`)
    for (const [i, table] of tables.entries()) {
      ctx.throwIfCancelled()
      for (const problem of integrityProblems(db, table)) problems.push(`${table}: ${problem}`)
      ctx.progress(((i + 1) / tables.length) * checkShare, 'integrity', `Checked ${table} (${i + 1}/${tables.length})`)
    }
    ctx.throwIfCancelled()
    const fk = foreignKeyViolations(db)
    for (const v of fk) problems.push(`${v.table} row ${v.rowid}: missing parent in ${v.parent}`)
    ctx.progress(checkShare, 'foreign keys', `${fk.length} foreign-key violations`)

    if (params.vacuum) {
      ctx.throwIfCancelled()
      ctx.progress(checkShare, 'vacuum', 'Rebuilding the database file')
      vacuum(db)
    }
    ctx.throwIfCancelled()
    checkpointWal(db)
    const sizeAfter = databaseBytes(file)
    ctx.progress(1, 'done', 'Finished')
    const message =
      problems.length === 0
        ? `Integrity ok across ${tables.length} tables; ${formatBytes(sizeBefore)} -> ${formatBytes(sizeAfter)}`
        : `${problems.length} integrity problems found`
    return { result: { ok: problems.length === 0, tables: tables.length, problems: problems.slice(0, 100), sizeBefore, sizeAfter }, message }
  },
})
