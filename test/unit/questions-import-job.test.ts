/**
 * questions.import runs as a questions.import job in a worker thread: a 20k-row JSON array is imported
 * whole, other calls are answered while the job runs, a cancel leaves the database as it was, and bad
 * input keeps its clear, per-line messages. The job is held "running" by a write lock the test takes on
 * the workspace file (the job cannot write its set while the test holds it): every assertion is on
 * state, none on time.
 */
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Job } from '../../preload/contract'
import { startBackend, type TestBackend } from '../helpers/services'

const ROWS = 20_000

/** A pretty-printed JSON array of `rows` questions. */
function jsonArray(rows: number): string {
  const items: string[] = []
  for (let i = 0; i < rows; i++) items.push(JSON.stringify({ id: `q${i}`, question: `Which river flows through Example ${i}?`, answers: [`River ${i}`], supporting_facts: [[`Example ${i}`, 0]] }, null, 2))
  return `[\n${items.join(',\n')}\n]\n`
}

describe('question import as a job', () => {
  let backend: TestBackend
  let workspaceId: string
  let dbFile: string

  beforeAll(async () => {
    // A cancelled job that does not reach its next row in this time is terminated.
    backend = await startBackend(undefined, { cancelGraceMs: 200 })
    workspaceId = (await backend.call('workspace.create', { name: 'import-job' })).id
    dbFile = await backend.services.workspaces.databaseFile(workspaceId)
  })
  afterAll(async () => {
    await backend?.close()
  })

  /** Holds the workspace's write lock (another connection's IMMEDIATE transaction) until released. */
  function writeLock(): { release: () => void } {
    const other = new Database(dbFile)
    other.pragma('busy_timeout = 10000')
    other.exec('BEGIN IMMEDIATE')
    return {
      release: () => {
        other.exec('ROLLBACK')
        other.close()
      },
    }
  }

  /** Resolves with the questions.import job once it is running (its status event). */
  function importRunning(): Promise<Job> {
    return new Promise((resolve) => {
      const off = backend.services.events.subscribe((name, payload) => {
        const job = payload as Job
        if (name === 'job.status' && job.kind === 'questions.import' && job.status === 'running') {
          off()
          resolve(job)
        }
      })
    })
  }

  const jobStatus = async (id: string): Promise<string> => (await backend.services.jobs.get(id)).status
  const uploads = (): string[] => {
    const dir = join(backend.dataDir, 'uploads', 'questions')
    return existsSync(dir) ? readdirSync(dir) : []
  }

  it('imports 20k rows of a JSON array in a worker thread and answers other calls while the job runs', async () => {
    const lock = writeLock()
    const running = importRunning()
    const importing = backend.call('questions.import', { workspaceId, name: 'big', content: jsonArray(ROWS), fileName: 'big.json' })
    const job = await running
    // The job cannot finish while the lock is held: the answer below comes while it is running.
    const info = await backend.call('app.info', {})
    expect(info.dataDir).toBe(backend.dataDir)
    expect(await jobStatus(job.id)).toBe('running')
    expect((await backend.call('job.list', { workspaceId })).find((j) => j.id === job.id)?.status).toBe('running')
    lock.release()

    const { setId, report } = await importing
    expect(report).toMatchObject({ format: 'json', rows: ROWS, imported: ROWS, badRows: [] })
    expect((await backend.call('questions.search', { workspaceId, setId, limit: 1 })).total).toBe(ROWS)
    const done = await backend.services.jobs.get(job.id)
    expect(done).toMatchObject({ status: 'done', kind: 'questions.import', result: { setId, rows: ROWS, imported: ROWS, badRows: 0 } })
    // The staged file went with the job.
    expect(uploads()).toEqual([])
  }, 600_000)

  it('a cancelled import leaves no set and no rows', async () => {
    const before = (await backend.call('questions.sets', { workspaceId })).length
    const lock = writeLock()
    const running = importRunning()
    const importing = backend.call('questions.import', { workspaceId, name: 'cancelled', content: jsonArray(ROWS), fileName: 'big.json' })
    const outcome = importing.then(
      () => 'imported',
      (err: Error) => err.message,
    )
    const job = await running
    await backend.call('job.cancel', { id: job.id })
    // Released only now: whatever the thread was waiting for, it meets the cancel first.
    lock.release()
    expect(await outcome).toMatch(/cancelled; nothing was written/)
    expect(await jobStatus(job.id)).toBe('cancelled')
    const sets = await backend.call('questions.sets', { workspaceId })
    expect(sets).toHaveLength(before)
    expect(sets.find((s) => s.name === 'cancelled')).toBeUndefined()
    const raw = new Database(dbFile, { readonly: true })
    try {
      const orphans = raw.prepare('select count(*) from questions where set_id not in (select id from question_sets)').pluck().get()
      expect(orphans).toBe(0)
    } finally {
      raw.close()
    }
    expect(uploads()).toEqual([])
  }, 600_000)

  it('keeps the clear messages for bad input: the line of invalid JSON, the field of a wrong value, a name taken', async () => {
    const text = '[\n  {"id": "a", "question": "Who?", "answer": "me"},\n  {"id": "b", "question": oops},\n  {"id": "c", "question": "Where?", "answers": {"x": 1}},\n  {"id": "d", "question": "When?", "answer": "now"}\n]'
    const { report } = await backend.call('questions.import', { workspaceId, name: 'broken', content: text, fileName: 'broken.json' })
    expect(report).toMatchObject({ rows: 4, imported: 2 })
    expect(report.badRows).toEqual([
      { line: 3, question: null, item: null, reason: expect.stringMatching(/^invalid JSON/) },
      { line: 4, question: null, item: null, reason: 'answers: expected text, got object' },
    ])
    const garbage = await backend.call('questions.import', { workspaceId, name: 'garbage', content: '{"data": 5', fileName: 'g.json' })
    expect(garbage.report.badRows).toEqual([{ line: 1, question: null, item: null, reason: expect.stringMatching(/^invalid JSON/) }])
    await expect(backend.call('questions.import', { workspaceId, name: 'broken', content: text, fileName: 'broken.json' })).rejects.toMatchObject({
      message: 'A question set named "broken" exists already: pick another name',
      body: { code: 'CONFLICT' },
    })
  }, 600_000)
})
