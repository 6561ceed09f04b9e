import { afterAll, expect, it } from 'vitest'
import type { Job } from '../../preload/contract'
import { appDbFile } from '../../main/config/paths'
import { appMigrations } from '../../main/db/migrations'
import { openDatabase } from '../../main/db/open'
import type { AppDatabase } from '../../main/db/schema'
import { EventBus } from '../../main/events/bus'
import { JobManager } from '../../main/jobs/manager'
import { tempDir } from '../helpers/services'

const tmp = tempDir()
afterAll(() => tmp.cleanup())

// Issue 23 item 9: progress writes are throttled; the last figure of a burst used to be dropped, so a
// job that then worked silently (one large file) showed a stale progress until it ended.
it('stores the last progress of a burst once the write window ends, not only the first', async () => {
  const app = await openDatabase<AppDatabase>(appDbFile(tmp.dir), appMigrations)
  const events = new EventBus()
  const worker = { url: new URL('../fixtures/jobs/progress-burst-worker.mjs', import.meta.url) }
  const jobs = new JobManager(app, events, { dataDir: tmp.dir, worker, workspaceDbFile: async () => '', progressWriteMs: 100 })
  await jobs.init()
  const stored = (id: string) => app.raw.prepare('select progress, message from jobs where id = ?').get(id) as { progress: number; message: string }
  // Any kind will do: the worker above stands in for the kind's runner.
  const job: Job = await jobs.start('model.download', null, { uri: 'hf:none/none:Q4' })
  // Wait on state: every progress event is followed by a check of the stored row.
  const reached = new Promise<void>((resolve) => {
    const check = () => stored(job.id).progress === 0.6 && resolve()
    events.subscribe((name) => name === 'job.progress' && check())
    const timer = setInterval(check, 20)
    void jobs.waitFor(job.id).finally(() => clearInterval(timer))
  })
  await reached
  expect(stored(job.id)).toEqual({ progress: 0.6, message: 'last of the burst' })
  await jobs.cancel(job.id)
  expect((await jobs.waitFor(job.id)).status).toBe('cancelled')
  await jobs.shutdown()
  await app.close()
}, 600_000)
