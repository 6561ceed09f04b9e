import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import type { Job } from '../../preload/contract'
import { join } from 'node:path'
import { appDbFile } from '../../main/config/paths'
import { appMigrations } from '../../main/db/migrations'
import { openDatabase } from '../../main/db/open'
import type { AppDatabase } from '../../main/db/schema'
import { EventBus } from '../../main/events/bus'
import { JobManager } from '../../main/jobs/manager'
import { WorkspaceService } from '../../main/workspaces/service'
import { fillDatabase } from '../helpers/bulk'
import { sourceWorker, startBackend, tempDir } from '../helpers/services'

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

describe('jobs in parallel', () => {
  const tmp = tempDir()
  afterAll(() => tmp.cleanup())

  it('run independent jobs of a workspace at once, keep an exclusive one alone, and report queue positions', async () => {
    const setup = await startBackend(tmp.dir)
    const w = await setup.call('workspace.create', { name: 'parallel' })
    fillDatabase(await setup.services.workspaces.databaseFile(w.id), 3, 200)
    await setup.close()
    // Queued while no process runs: the manager below sees them all in its first plan.
    const raw = new Database(appDbFile(tmp.dir))
    const insert = raw.prepare(
      `insert into jobs (id, kind, workspace_id, status, progress, stage, message, params_json, created_at, owner_pid)
       values (?, ?, ?, 'queued', 0, 'queued', '', ?, ?, null)`,
    )
    const queue: Array<[string, string, object]> = [
      ['vacuum-1', 'db.maintenance', { vacuum: true }],
      ['export-1', 'graph.export', { path: join(tmp.dir, 'one.graphml') }],
      ['export-2', 'graph.export', { path: join(tmp.dir, 'two.graphml') }],
      ['vacuum-2', 'db.maintenance', { vacuum: false }],
    ]
    queue.forEach(([id, kind, params], i) => insert.run(id, kind, w.id, JSON.stringify(params), new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString()))
    raw.close()

    const app = await openDatabase<AppDatabase>(appDbFile(tmp.dir), appMigrations)
    const workspaces = new WorkspaceService(app.db, tmp.dir, async () => false)
    const events = new EventBus()
    const runningNow = (): string[] => (app.raw.prepare(`select id from jobs where status = 'running' order by id`).pluck().all() as string[])
    // Every status event with the jobs running at that moment, read synchronously from the database.
    const log: Array<{ id: string; status: string; place?: { position: number; waitingFor: string }; running: string[] }> = []
    events.subscribe((name, p) => {
      if (name !== 'job.status') return
      const job = p as Job
      log.push({ id: job.id, status: job.status, ...(job.queue ? { place: job.queue } : {}), running: runningNow() })
    })
    const jobs = new JobManager(app, events, { dataDir: tmp.dir, worker: sourceWorker, workspaceDbFile: (id) => workspaces.databaseFile(id), concurrency: 2 })
    await jobs.init()
    for (const [id] of queue) expect((await jobs.waitFor(id)).status).toBe('done')
    await jobs.shutdown()
    await workspaces.closeAll()
    await app.close()

    const started = (id: string) => log.find((e) => e.id === id && e.status === 'running')!
    const places = (id: string) => log.filter((e) => e.id === id && e.place).map((e) => e.place)
    // The first VACUUM ran alone; both exports waited for it, then ran at the same time; the second VACUUM waited for them.
    expect(started('vacuum-1').running).toEqual(['vacuum-1'])
    expect(started('export-1').running).toEqual(['export-1', 'export-2'])
    expect(started('export-2').running).toEqual(['export-1', 'export-2'])
    expect(started('vacuum-2').running).toEqual(['vacuum-2'])
    expect(places('export-1')[0]).toEqual({ position: 1, waitingFor: 'db.maintenance running in this workspace' })
    expect(places('export-2')[0]).toEqual({ position: 2, waitingFor: 'db.maintenance running in this workspace' })
    expect(places('vacuum-2')).toEqual([
      { position: 3, waitingFor: 'db.maintenance running in this workspace' },
      { position: 1, waitingFor: 'graph.export running in this workspace' },
    ])
  }, 600_000)
})
