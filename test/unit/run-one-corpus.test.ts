/**
 * A run sees one corpus: an evaluation queued with an ingest of its workspace, with slots to spare
 * (four), never runs beside it (eval.run holds the corpus lock shared, corpus.ingest alone), so the
 * corpus signature it stores is the corpus it read. Checked by what the episodes saw: every step's
 * observation and action equal those of the same evaluation run afterwards on the corpus that
 * signature names, and (so the check has teeth) differ from the evaluation before the ingest.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Job } from '../../preload/contract'
import { corpusSignature } from '../../main/experiments/questions'
import { startBackend, tempDir, type TestBackend } from '../helpers/services'

describe('a run and an ingest of its workspace queued at once', () => {
  const tmp = tempDir('harness-lab-one-corpus-')
  let backend: TestBackend
  let workspaceId = ''
  let setId = 0
  let dbFile = ''

  beforeAll(async () => {
    backend = await startBackend(join(tmp.dir, 'data'), { jobConcurrency: 4 })
    workspaceId = (await backend.call('workspace.create', { name: 'one corpus' })).id
    const ingest = await backend.call('job.start', { kind: 'corpus.ingest', workspaceId, params: { source: { kind: 'demo', seed: 2, size: 0.5 } } })
    expect((await backend.services.jobs.waitFor(ingest.id)).status).toBe('done')
    setId = (await backend.call('questions.sets', { workspaceId }))[0]!.id
    dbFile = await backend.services.workspaces.databaseFile(workspaceId)
  }, 600_000)
  afterAll(async () => {
    await backend?.close()
    tmp.cleanup()
  })

  const evalParams = () => ({ environment: 'graph-menu', policy: { kind: 'scripted' as const, name: 'greedy' }, questionSetId: setId, limit: 12, seed: 3 })
  const startEval = () => backend.call('job.start', { kind: 'eval.run', workspaceId, params: evalParams() })
  const runOf = (job: Job): number => {
    if (job.kind !== 'eval.run' || job.status !== 'done' || !job.result) throw new Error(`evaluation ${job.status}: ${job.error ?? job.message}`)
    return job.result.runId
  }
  const read = <T>(fn: (db: Database.Database) => T): T => {
    const db = new Database(dbFile, { readonly: true })
    try {
      return fn(db)
    } finally {
      db.close()
    }
  }
  const storedSignature = (runId: number): string => read((db) => db.prepare('select corpus_signature from runs where id = ?').pluck().get(runId) as string)
  const signatureNow = (): string => read((db) => corpusSignature(db))
  /** What each episode saw and did: the question, every step's observation and action, the answer. */
  const seen = async (runId: number): Promise<unknown[]> => {
    const { episodes } = await backend.call('runs.episodes', { workspaceId, runId, limit: 1000 })
    const out: unknown[] = []
    for (const e of [...episodes].sort((a, b) => (a.questionId ?? 0) - (b.questionId ?? 0))) {
      const full = await backend.call('runs.episode', { workspaceId, episodeId: e.id })
      out.push({ question: e.questionId, answer: e.answer, steps: full.steps.map((s) => [s.observationText, s.action]) })
    }
    return out
  }
  /** A folder of documents restating the set's questions, so the graph-menu's menus change. */
  const writeFolder = (name: string): string => {
    const dir = join(tmp.dir, name)
    mkdirSync(dir)
    const questions = read((db) => db.prepare('select question from questions where set_id = ? order by id limit 12').pluck().all(setId) as string[])
    questions.forEach((q, i) => writeFileSync(join(dir, `${name}-${i}.txt`), `${q.replace(/\?$/, '')} is told in the ${name} chronicle. ${q.replace(/\?$/, '')}, says the ${name} chronicle, was settled long ago.\n`))
    return dir
  }
  const statusLog = (id: () => string | undefined): Job[] => {
    const log: Job[] = []
    backend.services.events.subscribe((name, payload) => {
      if (name === 'job.status' && (payload as Job).id === id()) log.push(payload as Job)
    })
    return log
  }

  it('an evaluation queued after an ingest waits for it, says why, and its episodes are those of its stored corpus', async () => {
    const before = runOf(await backend.services.jobs.waitFor((await startEval()).id))
    const folder = writeFolder('north')

    const ingest = await backend.call('job.start', { kind: 'corpus.ingest', workspaceId, params: { source: { kind: 'folder', path: folder } } })
    let evalId: string | undefined
    const log = statusLog(() => evalId)
    const evaluation = await startEval()
    evalId = evaluation.id
    expect(evaluation.queue?.waitingFor).toMatch(/^corpus\.ingest (running|queued before it) in this workspace: a run reads one corpus from start to end/)
    const [ingested, evaluated] = await Promise.all([backend.services.jobs.waitFor(ingest.id), backend.services.jobs.waitFor(evaluation.id)])
    expect(ingested.status).toBe('done')
    expect(evaluated.startedAt! >= ingested.finishedAt!).toBe(true)
    expect(log.filter((j) => j.status === 'queued').every((j) => /a run reads one corpus/.test(j.message))).toBe(true)

    const during = runOf(evaluated)
    const after = runOf(await backend.services.jobs.waitFor((await startEval()).id))
    expect(storedSignature(during)).toBe(signatureNow())
    expect(storedSignature(after)).toBe(signatureNow())
    expect(storedSignature(before)).not.toBe(signatureNow())
    const [seenBefore, seenDuring, seenAfter] = [await seen(before), await seen(during), await seen(after)]
    expect(seenDuring).toEqual(seenAfter)
    // The ingest changed what the evaluation sees: a run that mixed the two corpora could not pass.
    expect(seenBefore).not.toEqual(seenAfter)
  }, 600_000)

  it('an ingest queued after an evaluation waits for it, and the evaluation read the corpus it stored', async () => {
    const signature = signatureNow()
    const reference = runOf(await backend.services.jobs.waitFor((await startEval()).id))
    const folder = writeFolder('south')

    const evaluation = await startEval()
    const ingest = await backend.call('job.start', { kind: 'corpus.ingest', workspaceId, params: { source: { kind: 'folder', path: folder } } })
    expect(ingest.queue?.waitingFor).toMatch(/^eval\.run (running|queued before it) in this workspace: one corpus writer at a time, never while a run reads the corpus/)
    const [evaluated, ingested] = await Promise.all([backend.services.jobs.waitFor(evaluation.id), backend.services.jobs.waitFor(ingest.id)])
    expect(ingested.status).toBe('done')
    expect(ingested.startedAt! >= evaluated.finishedAt!).toBe(true)

    const during = runOf(evaluated)
    expect(storedSignature(during)).toBe(signature)
    expect(signatureNow()).not.toBe(signature)
    expect(await seen(during)).toEqual(await seen(reference))
  }, 600_000)
})
