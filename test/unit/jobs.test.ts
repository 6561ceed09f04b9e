import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import type { Job } from '../../preload/contract'
import { appDbFile } from '../../main/config/paths'
import { fillDatabase } from '../helpers/bulk'
import { startBackend, tempDir } from '../helpers/services'

describe('jobs', () => {
  const tmp = tempDir()
  afterAll(() => tmp.cleanup())

  it('run the integrity check and vacuum in a worker, with progress events and a stored result', async () => {
    const backend = await startBackend(tmp.dir)
    const w = await backend.call('workspace.create', { name: 'checked' })
    const file = await backend.services.workspaces.databaseFile(w.id)
    fillDatabase(file, 3, 200)
    const probe = new Database(file, { readonly: true })
    const tableCount = probe.prepare("select count(*) from sqlite_master where type = 'table' and name not like 'sqlite_%'").pluck().get()
    probe.close()
    const progress: number[] = []
    const statuses: string[] = []
    backend.services.events.subscribe((name, payload) => {
      if (name === 'job.progress') progress.push((payload as { progress: number }).progress)
      if (name === 'job.status') statuses.push((payload as Job).status)
    })
    const job = await backend.call('job.start', { kind: 'db.maintenance', workspaceId: w.id })
    const done = await backend.services.jobs.waitFor(job.id)
    expect(done.status).toBe('done')
    expect(done.progress).toBe(1)
    expect(done.result).toMatchObject({ ok: true, tables: tableCount, problems: [] })
    expect(progress.length).toBeGreaterThan(0) // throttled to one event per 50 ms; the final state comes as a status event
    expect(progress).toEqual([...progress].sort((a, b) => a - b))
    expect(statuses).toEqual(['queued', 'running', 'done'])
    await backend.close()
  })

  it('can be cancelled while running, leaving the database intact', async () => {
    const backend = await startBackend(tmp.dir, { cancelGraceMs: 60_000 })
    const w = await backend.call('workspace.create', { name: 'big' })
    const file = await backend.services.workspaces.databaseFile(w.id)
    fillDatabase(file, 30, 3000)
    const firstProgress = new Promise<void>((resolve) => {
      backend.services.events.subscribe((name, p) => {
        if (name === 'job.progress' && (p as { progress: number }).progress > 0) resolve()
      })
    })
    const job = await backend.call('job.start', { kind: 'db.maintenance', workspaceId: w.id })
    await firstProgress
    await backend.call('job.cancel', { id: job.id })
    const end = await backend.services.jobs.waitFor(job.id)
    expect(end.status).toBe('cancelled')
    expect(end.progress).toBeLessThan(1)
    const db = new Database(file, { readonly: true })
    expect(db.pragma('quick_check', { simple: true })).toBe('ok')
    expect(db.prepare('select count(*) from bulk_29').pluck().get()).toBe(3000)
    db.close()
    await backend.close()
  })

  it('cancel a queued job without running it', async () => {
    const backend = await startBackend(tmp.dir)
    const w = await backend.call('workspace.create', { name: 'queue' })
    fillDatabase(await backend.services.workspaces.databaseFile(w.id), 10, 2000)
    const first = await backend.call('job.start', { kind: 'db.maintenance', workspaceId: w.id })
    const second = await backend.call('job.start', { kind: 'db.maintenance', workspaceId: w.id })
    expect(second.status).toBe('queued')
    const cancelled = await backend.call('job.cancel', { id: second.id })
    expect(cancelled.status).toBe('cancelled')
    expect(cancelled.startedAt).toBeNull()
    await backend.services.jobs.waitFor(first.id)
    await expect(backend.call('workspace.delete', { id: w.id, confirmName: 'queue' })).resolves.toEqual({ deleted: true })
    await backend.close()
  })

  it('keep their status across a restart: a job orphaned by a crash becomes failed, queued jobs run', async () => {
    let backend = await startBackend(tmp.dir)
    const w = await backend.call('workspace.create', { name: 'restart' })
    await backend.close()
    // Simulate a crash: a row left "running" by a process that no longer exists, and one still queued.
    const raw = new Database(appDbFile(tmp.dir))
    const insert = raw.prepare(
      `insert into jobs (id, kind, workspace_id, status, progress, stage, message, params_json, created_at, owner_pid)
       values (?, 'db.maintenance', ?, ?, 0.4, 'integrity', '', '{"vacuum":false}', ?, ?)`,
    )
    insert.run('orphan', w.id, 'running', new Date().toISOString(), 2 ** 22 + 12345)
    insert.run('waiting', w.id, 'queued', new Date().toISOString(), null)
    raw.close()

    backend = await startBackend(tmp.dir)
    const orphan = await backend.services.jobs.get('orphan')
    expect(orphan.status).toBe('failed')
    expect(orphan.error).toMatch(/Interrupted/)
    const waiting = await backend.services.jobs.waitFor('waiting')
    expect(waiting.status).toBe('done')
    await backend.close()
  })

  it('refuse to delete a workspace while its job is active', async () => {
    const backend = await startBackend(tmp.dir)
    const w = await backend.call('workspace.create', { name: 'busy' })
    fillDatabase(await backend.services.workspaces.databaseFile(w.id), 10, 2000)
    const job = await backend.call('job.start', { kind: 'db.maintenance', workspaceId: w.id })
    await expect(backend.call('workspace.delete', { id: w.id, confirmName: 'busy' })).rejects.toThrow(/cancel it first/)
    await backend.call('job.cancel', { id: job.id })
    await backend.services.jobs.waitFor(job.id)
    await backend.close()
  })
})

describe('jobs shared by several processes on one data folder', () => {
  const tmp = tempDir()
  afterAll(() => tmp.cleanup())

  it("leave each other's queued jobs alone; a cancelled queued job never runs", async () => {
    const a = await startBackend(tmp.dir)
    const w = await a.call('workspace.create', { name: 'shared' })
    fillDatabase(await a.services.workspaces.databaseFile(w.id), 10, 2000)
    const first = await a.call('job.start', { kind: 'db.maintenance', workspaceId: w.id })
    const second = await a.call('job.start', { kind: 'db.maintenance', workspaceId: w.id })
    // A second process (a CLI command) opening the same folder must not take over or cancel A's queued job.
    const b = await startBackend(tmp.dir)
    await b.close()
    expect((await a.services.jobs.get(second.id)).status).not.toBe('cancelled')
    const cancelled = await a.call('job.cancel', { id: second.id })
    await a.services.jobs.waitFor(first.id)
    expect(cancelled.status).toBe('cancelled')
    const final = await a.services.jobs.waitFor(second.id)
    expect(final.status).toBe('cancelled')
    expect(final.startedAt).toBeNull()
    await a.close()
  })
})
