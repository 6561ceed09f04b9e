import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { fillDatabase } from '../helpers/bulk'
import { startBackend, tempDir } from '../helpers/services'

describe('the job manager waits on events', () => {
  const tmp = tempDir()
  afterAll(() => tmp.cleanup())
  afterEach(() => vi.useRealTimers())

  it('observes a job’s end with every timer frozen, and leaves no timer behind', async () => {
    const backend = await startBackend(tmp.dir)
    const w = await backend.call('workspace.create', { name: 'frozen clock' })
    fillDatabase(await backend.services.workspaces.databaseFile(w.id), 3, 200)
    // A poll would never come back: its timers never fire. Worker threads keep their own clocks.
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'setImmediate'] })
    const job = await backend.call('job.start', { kind: 'db.maintenance', workspaceId: w.id })
    const done = await backend.services.jobs.waitFor(job.id)
    expect(done.status).toBe('done')
    expect(done.kind === 'db.maintenance' && done.result?.ok).toBe(true)
    expect(vi.getTimerCount()).toBe(0)
    // A job already ended is answered at once.
    expect((await backend.services.jobs.waitFor(job.id)).status).toBe('done')
    vi.useRealTimers()
    await backend.close()
  })

  it('refuses to wait for a job another live process owns, and says where it runs', async () => {
    const backend = await startBackend(tmp.dir)
    const w = await backend.call('workspace.create', { name: 'elsewhere' })
    const raw = backend.services.app.raw
    raw
      .prepare(
        `insert into jobs (id, kind, workspace_id, status, progress, stage, message, params_json, created_at, owner_pid)
         values ('foreign', 'db.maintenance', ?, 'running', 0.5, 'integrity', '', '{"vacuum":false}', ?, ?)`,
      )
      .run(w.id, new Date().toISOString(), process.ppid)
    await expect(backend.services.jobs.waitFor('foreign')).rejects.toMatchObject({ code: 'CONFLICT', message: new RegExp(`pid ${process.ppid}`) })
    raw.prepare("delete from jobs where id = 'foreign'").run()
    await backend.close()
  })
})
