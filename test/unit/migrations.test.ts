import { afterAll, describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { appMigrations, workspaceMigrations } from '../../main/db/migrations'
import { migrate, openDatabase } from '../../main/db/open'
import type { AppDatabase } from '../../main/db/schema'
import { tempDir } from '../helpers/services'

describe('migrations', () => {
  const tmp = tempDir()
  afterAll(() => tmp.cleanup())

  it('create the catalogue schema on a fresh file, with WAL and foreign keys on', async () => {
    const opened = await openDatabase<AppDatabase>(join(tmp.dir, 'fresh', 'app.db'), appMigrations)
    const tables = opened.raw.prepare("select name from sqlite_master where type = 'table' order by name").pluck().all()
    expect(tables).toEqual(expect.arrayContaining(['workspaces', 'jobs', 'kysely_migration']))
    expect(opened.raw.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(opened.raw.pragma('foreign_keys', { simple: true })).toBe(1)
    await opened.close()
  })

  it('are a no-op when applied again', async () => {
    const file = join(tmp.dir, 'again', 'app.db')
    const first = await openDatabase<AppDatabase>(file, appMigrations)
    await first.db.insertInto('workspaces').values({ id: 'w1', name: 'kept', dir: 'workspaces/w1', created_at: 'x', updated_at: 'x', opened_at: null }).execute()
    const rerun = await migrate(first.db, appMigrations)
    expect(rerun).toEqual([])
    await first.close()
    const second = await openDatabase<AppDatabase>(file, appMigrations)
    const rows = await second.db.selectFrom('workspaces').select('name').execute()
    expect(rows).toEqual([{ name: 'kept' }])
    await second.close()
  })

  it('apply the workspace schema too', async () => {
    const opened = await openDatabase<never>(join(tmp.dir, 'ws', 'workspace.db'), workspaceMigrations)
    expect(opened.raw.prepare("select count(*) from sqlite_master where name = 'meta'").pluck().get()).toBe(1)
    await opened.close()
  })

  it('enforce foreign keys: a job cannot point at a missing workspace', async () => {
    const opened = await openDatabase<AppDatabase>(join(tmp.dir, 'fk', 'app.db'), appMigrations)
    await expect(
      opened.db
        .insertInto('jobs')
        .values({
          id: 'j', kind: 'db.maintenance', workspace_id: 'missing', status: 'queued', progress: 0, stage: '', message: '', error: null,
          params_json: '{}', result_json: null, created_at: 'x', started_at: null, finished_at: null, owner_pid: null,
        })
        .execute(),
    ).rejects.toThrow(/FOREIGN KEY/)
    await opened.close()
  })

  it('report a corrupt database file clearly', async () => {
    const { writeFileSync, mkdirSync } = await import('node:fs')
    mkdirSync(join(tmp.dir, 'bad'), { recursive: true })
    writeFileSync(join(tmp.dir, 'bad', 'app.db'), 'this is not a database, just text that is long enough to have a header.'.repeat(20))
    await expect(openDatabase(join(tmp.dir, 'bad', 'app.db'), appMigrations)).rejects.toThrow(/not a database/)
  })
})
