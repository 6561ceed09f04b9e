/**
 * The jobs store against the real backend in-process: a job list read before a job started, arriving after the
 * start's reply, must not drop that job (a page would show a queued findings run as never started until its next
 * event). The list's reply is held by the test, not faked: it is the server's own.
 */
import { createPinia, setActivePinia } from 'pinia'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HarnessApi } from '../../preload/contract'
import { provideApi } from '../../renderer/src/api'
import { useJobsStore } from '../../renderer/src/stores/jobs'
import { inProcessApi } from '../helpers/in-process-api'
import type { TestBackend } from '../helpers/services'
import { startJobBackend } from './fixtures'

describe('jobs store', () => {
  let backend: TestBackend
  let workspaceId: string
  /** Replies of job.list held until released, in order. */
  const held: { release: () => void }[] = []
  let holdLists = false

  beforeAll(async () => {
    backend = await startJobBackend()
    const inner = inProcessApi(backend)
    const api: HarnessApi = {
      async call(route, input) {
        const reply = inner.call(route, input)
        if (route !== 'job.list' || !holdLists) return reply
        const value = await reply
        await new Promise<void>((release) => held.push({ release }))
        return value
      },
      on: (event, listener) => inner.on(event, listener),
    }
    provideApi(api)
    workspaceId = (await backend.call('workspace.create', { name: 'Jobs store' })).id
  })
  afterAll(async () => backend?.close())

  it('keeps a job started while an older list was on its way', async () => {
    setActivePinia(createPinia())
    const jobs = useJobsStore()
    holdLists = true
    const refreshing = jobs.refresh()
    while (held.length === 0) await new Promise((r) => setTimeout(r, 5))
    const started = await jobs.start({ kind: 'db.maintenance', workspaceId, params: {} })
    expect(started).toBeDefined()
    held.shift()!.release()
    await refreshing
    holdLists = false
    expect(jobs.jobs.map((j) => j.id)).toContain(started!.id)
  })
})
