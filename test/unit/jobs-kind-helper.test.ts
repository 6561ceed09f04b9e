import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import type { Job } from '../../preload/contract'
import { workspaceMigrations } from '../../main/db/migrations'
import { openDatabase, type OpenedDatabase } from '../../main/db/open'
import type { WorkspaceDatabase } from '../../main/db/schema'
import { defineJobKind } from '../../main/jobs/define-job-kind'
import type { JobContext } from '../../main/jobs/protocol'
import { startBackend, tempDir } from '../helpers/services'

const tmp = tempDir('harness-lab-job-kind-')
afterAll(() => tmp.cleanup())

async function workspaceFile(name: string): Promise<string> {
  const file = join(tmp.dir, `${name}.db`)
  await (await openDatabase(file, workspaceMigrations)).close()
  return file
}

function context(params: unknown, workspaceDbFile: string | null, holds: string[] = []): JobContext {
  return {
    jobId: 'j',
    params,
    dataDir: tmp.dir,
    workspaceDbFile,
    progress: () => undefined,
    throwIfCancelled: () => undefined,
    cancelled: false,
    reportModelHold: (path) => {
      holds.push(`hold ${path}`)
      return () => holds.push(`release ${path}`)
    },
  }
}

describe('defineJobKind', () => {
  it('refuses bad parameters before running or opening anything', async () => {
    const run = vi.fn()
    const kind = defineJobKind({ kind: 'corpus.embed', run })
    await expect(kind(context({ modelPath: '' }, await workspaceFile('bad-params')))).rejects.toMatchObject({ code: 'VALIDATION', issues: [expect.stringMatching(/^params\.modelPath/)] })
    expect(run).not.toHaveBeenCalled()
  })

  it('gives the run its parameters with defaults and an open workspace database, and closes it after', async () => {
    let seen: OpenedDatabase<WorkspaceDatabase> | undefined
    const kind = defineJobKind({
      kind: 'db.maintenance',
      run: async (_ctx, { params, db }) => {
        seen = db
        expect(params).toEqual({ vacuum: true })
        expect(db.raw.open).toBe(true)
        return { result: { ok: true, tables: 0, problems: [], sizeBefore: 0, sizeAfter: 0 }, message: 'ok' }
      },
    })
    expect(kind.kind).toBe('db.maintenance')
    await expect(kind(context(undefined, await workspaceFile('ok')))).resolves.toMatchObject({ message: 'ok' })
    expect(seen?.raw.open).toBe(false)
  })

  it('closes the database and everything the run owned after a failing run, last owned first, and keeps the run’s error', async () => {
    const order: string[] = []
    let seen: OpenedDatabase<WorkspaceDatabase> | undefined
    const holds: string[] = []
    const kind = defineJobKind({
      kind: 'graph.export',
      run: async (_ctx, { db, own }) => {
        seen = db
        own({ dispose: async () => void order.push(`model (db open: ${db.raw.open})`) }, '/models/m.gguf')
        own({
          close: () => {
            order.push('policy')
            throw new Error('closing failed too')
          },
        })
        throw new Error('the run failed')
      },
    })
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    await expect(kind(context({}, await workspaceFile('failing'), holds))).rejects.toThrow('the run failed')
    error.mockRestore()
    expect(order).toEqual(['policy', 'model (db open: true)'])
    expect(seen?.raw.open).toBe(false)
    expect(holds).toEqual(['hold /models/m.gguf', 'release /models/m.gguf'])
  })

  it('fails clearly when a workspace kind gets no workspace', async () => {
    const kind = defineJobKind({ kind: 'db.maintenance', run: vi.fn() })
    await expect(kind(context({}, null))).rejects.toThrow(/needs a workspace/)
  })
})

describe('job.start checks parameters against the contract at the transport', () => {
  it('before a job is queued or a worker started', async () => {
    const backend = await startBackend()
    const statuses: Job[] = []
    backend.services.events.subscribe((name, payload) => {
      if (name === 'job.status') statuses.push(payload as Job)
    })
    const w = await backend.call('workspace.create', { name: 'checked' })
    const { jobs } = backend.services
    // The dispatcher parses job.start's input (the kind's params schema); the manager and its preflights get parsed params.
    const start = (input: unknown) => backend.call('job.start', input as never)
    const refused = { body: { code: 'VALIDATION' } }
    await expect(start({ kind: 'corpus.embed', workspaceId: w.id, params: { modelPath: '' } })).rejects.toMatchObject(refused)
    await expect(start({ kind: 'corpus.ingest', workspaceId: w.id, params: { source: { kind: 'nope' } } })).rejects.toMatchObject(refused)
    await expect(start({ kind: 'db.maintenance', params: {} })).rejects.toMatchObject(refused)
    await expect(jobs.start('db.maintenance', null, { vacuum: true })).rejects.toMatchObject({ code: 'VALIDATION', message: /workspace/ })
    await expect(start({ kind: 'model.download', workspaceId: w.id, params: { uri: 'hf:a/b' } })).rejects.toMatchObject(refused)
    await expect(start({ kind: 'nope', workspaceId: w.id, params: {} })).rejects.toMatchObject(refused)
    // The eval preflight: a split that does not exist is refused now, not as a failed run later.
    await expect(start({ kind: 'eval.run', workspaceId: w.id, params: { environment: 'graph-menu', policy: { kind: 'scripted', name: 'greedy' }, questionSetId: 99 } })).rejects.toMatchObject(refused)
    expect(statuses).toEqual([])
    expect(await jobs.list({ limit: 10 })).toEqual([])
    await backend.close()
  })
})
