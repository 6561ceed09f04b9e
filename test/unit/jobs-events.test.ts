import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
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
    // Each fake comes with its clear, so a timer the manager sets and clears is not counted as left behind.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate'] })
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
    // A real second process that owns jobs on this data folder (it holds its owner lock).
    const code = `const { OwnerLock } = await import(process.env.OWNER_MODULE); OwnerLock.acquire(process.env.OWNER_DATA_DIR); process.stdout.write('ready\\n'); setInterval(() => {}, 1 << 30)`
    const owner = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      env: { ...process.env, OWNER_MODULE: fileURLToPath(new URL('../../main/jobs/owner-lock.ts', import.meta.url)), OWNER_DATA_DIR: tmp.dir },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    await new Promise<void>((resolve, reject) => {
      owner.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve())
      owner.on('exit', (c) => reject(new Error(`owner exited with ${c}`)))
    })
    const raw = backend.services.app.raw
    raw
      .prepare(
        `insert into jobs (id, kind, workspace_id, status, progress, stage, message, params_json, created_at, owner_pid)
         values ('foreign', 'db.maintenance', ?, 'running', 0.5, 'integrity', '', '{"vacuum":false}', ?, ?)`,
      )
      .run(w.id, new Date().toISOString(), owner.pid)
    try {
      await expect(backend.services.jobs.waitFor('foreign')).rejects.toMatchObject({ code: 'CONFLICT', message: new RegExp(`pid ${owner.pid}`) })
    } finally {
      owner.kill('SIGKILL')
    }
    raw.prepare("delete from jobs where id = 'foreign'").run()
    await backend.close()
  })
})
