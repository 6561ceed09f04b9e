/**
 * The job queue across processes on one data folder: real CLI commands (`main/cli.ts`) and real
 * browser mode (`main/serve.ts`, run from source) as separate processes. A job queued behind another
 * process's job starts when that job ends, whichever process ran it; a CLI command whose job waits
 * says so on stderr, waits, runs it and exits with its result; a queued job whose process was killed
 * is failed with the reason by a CLI command, and adopted (saying so) by browser mode.
 *
 * Nothing here depends on timing. The first job is held running by a write lock this test takes on
 * the workspace database (its ingest waits for it, up to the job connection's 120 s busy timeout), so
 * the second is queued behind it for certain; every wait is on a condition (a job's status, a line a
 * process printed), with a hang guard far beyond any normal duration.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { appDbFile } from '../../main/config/paths'
import { callApi } from '../helpers/browser'
import { startBackend, tempDir } from '../helpers/services'

const ROOT = join(import.meta.dirname, '..', '..')
/** Only a hang reaches it. */
const HANG_GUARD_MS = 300_000

interface Proc {
  child: ChildProcess
  out: () => string
  err: () => string
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

const children: ChildProcess[] = []
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
})

/** Starts a process; one that is not `kept` is killed after its test (a kept one after its describe). */
function start(script: string, args: string[], kept = false): Proc {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'main', script), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    // Two slots: the queue waits here because of the corpus lock, not for a slot.
    env: { ...process.env, HARNESS_LAB_DATA_DIR: '', HARNESS_LAB_JOBS: '2' },
  })
  if (!kept) children.push(child)
  let out = ''
  let err = ''
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d))
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  return { child, out: () => out, err: () => err, exited }
}

/** Waits until `cond` holds (checked every 50 ms); throws, saying what it waited for, only past the hang guard. */
async function until<T>(what: string, cond: () => T | undefined | false | Promise<T | undefined | false>): Promise<T> {
  const deadline = Date.now() + HANG_GUARD_MS
  for (;;) {
    const v = await cond()
    if (v) return v
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

interface JobRow {
  id: string
  kind: string
  status: string
  owner_pid: number | null
  error: string | null
  message: string
  started_at: string | null
  finished_at: string | null
  params_json: string
}

describe('jobs across processes on one data folder', () => {
  const tmp = tempDir('harness-lab-xproc-')
  const dataDir = join(tmp.dir, 'data')
  let workspaceId = ''
  let workspaceDb = ''
  /** A second workspace, holding the demo world and its questions (for an evaluation). */
  let demo = { id: '', db: '' }
  let jobsDb: Database.Database
  const folders: Record<string, string> = {}
  /** Every job row, oldest first (a read-only look from this test). */
  const jobs = (): JobRow[] => jobsDb.prepare('select * from jobs order by created_at, id').all() as JobRow[]
  /** The newest job that ingests `folder`. */
  const jobOf = (folder: string): JobRow | undefined => jobs().reverse().find((j) => (JSON.parse(j.params_json) as { source?: { path?: string } }).source?.path === folders[folder])
  const cli = (...args: string[]): Proc => start('cli.ts', ['--data-dir', dataDir, ...args])
  const ingest = (folder: string, json = false): Proc => cli(...(json ? ['--json'] : []), 'corpus', 'ingest', workspaceId, '--folder', folders[folder]!)
  /** Holds the workspace's write lock, so an ingest that has started stays running until release(). */
  const holdCorpus = (file = workspaceDb): { release: () => void } => {
    const lock = new Database(file)
    lock.exec('BEGIN IMMEDIATE')
    const release = () => {
      if (!lock.open) return
      lock.exec('ROLLBACK')
      lock.close()
    }
    held.push(release)
    return { release }
  }
  const held: Array<() => void> = []
  afterEach(() => {
    for (const release of held.splice(0)) release()
  })
  const documents = (): number => {
    const db = new Database(workspaceDb, { readonly: true })
    try {
      return Number(db.prepare('select count(*) from documents').pluck().get())
    } finally {
      db.close()
    }
  }

  beforeAll(async () => {
    const backend = await startBackend(dataDir)
    workspaceId = (await backend.call('workspace.create', { name: 'shared folder' })).id
    workspaceDb = await backend.services.workspaces.databaseFile(workspaceId)
    const demoId = (await backend.call('workspace.create', { name: 'demo' })).id
    const demoIngest = await backend.call('job.start', { kind: 'corpus.ingest', workspaceId: demoId, params: { source: { kind: 'demo', seed: 2, size: 0.3 } } })
    expect((await backend.services.jobs.waitFor(demoIngest.id)).status).toBe('done')
    demo = { id: demoId, db: await backend.services.workspaces.databaseFile(demoId) }
    await backend.close()
    for (const name of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) {
      const dir = join(tmp.dir, name)
      mkdirSync(dir)
      for (let i = 0; i < 2; i++) writeFileSync(join(dir, `${name}${i}.txt`), `Document ${name}${i}. The river ${name.toUpperCase()}${i} flows past the town of ${name}ville.\n`)
      folders[name] = dir
    }
    jobsDb = new Database(appDbFile(dataDir), { readonly: true })
  }, 600_000)
  afterAll(() => {
    jobsDb?.close()
    tmp.cleanup()
  })

  it('CLI + CLI: a command queued behind another command’s job says so, waits, runs it once that ends and exits with its result', async () => {
    const lock = holdCorpus()
    const first = ingest('a')
    const running = await until('the first ingest to run', () => jobOf('a')?.status === 'running' && jobOf('a'))
    expect(running.owner_pid).toBe(first.child.pid)

    const second = ingest('b', true)
    await until('the second command to say it waits', () => second.err().includes('Waiting:'))
    expect(jobOf('b')?.status).toBe('queued')
    expect(second.err()).toMatch(new RegExp(`for corpus\\.ingest running in this workspace \\(process ${first.child.pid}\\): one corpus writer at a time`))
    expect(second.child.exitCode).toBeNull()

    lock.release()
    const [a, b] = await Promise.all([first.exited, second.exited])
    expect(a.code, first.err()).toBe(0)
    expect(b.code, second.err()).toBe(0)
    expect(second.err()).toContain(`Started: job ${jobOf('b')!.id} (corpus.ingest) after waiting`)
    const result = JSON.parse(second.out()) as { status: string; result: { ingested: number } }
    expect(result.status).toBe('done')
    expect(result.result.ingested).toBe(2)
    // It ran after the first ended, in its own process.
    const [ja, jb] = [jobOf('a')!, jobOf('b')!]
    expect(jb.owner_pid).toBe(second.child.pid)
    expect(jb.started_at! >= ja.finished_at!).toBe(true)
    expect(documents()).toBe(4)
  }, 600_000)

  it('CLI + CLI: `eval --json` queued behind another command’s ingest of its workspace waits, runs and prints its run', async () => {
    const lock = holdCorpus(demo.db)
    const first = cli('corpus', 'ingest', demo.id, '--folder', folders.a!)
    await until('the ingest to run', () => jobs().find((j) => j.kind === 'corpus.ingest' && j.owner_pid === first.child.pid && j.status === 'running'))
    const evaluation = cli('--json', 'eval', demo.id, '--env', 'graph-menu', '--policy', 'greedy', '--limit', '5')
    await until('the evaluation to say it waits', () => evaluation.err().includes('Waiting:'))
    expect(evaluation.err()).toMatch(/for corpus\.ingest running in this workspace \(process \d+\): a run reads one corpus from start to end/)
    lock.release()
    expect((await first.exited).code, first.err()).toBe(0)
    expect((await evaluation.exited).code, evaluation.err()).toBe(0)
    const run = JSON.parse(evaluation.out()) as { id: number; episodes: number }
    expect(run.episodes).toBe(5)
    const job = jobs().find((j) => j.kind === 'eval.run')!
    expect([job.status, job.owner_pid]).toEqual(['done', evaluation.child.pid])
  }, 600_000)

  it('CLI + CLI: a queued job whose command was killed is failed with the reason, never run by another command', async () => {
    const lock = holdCorpus()
    const first = ingest('c')
    await until('the first ingest to run', () => jobOf('c')?.status === 'running')
    const victim = ingest('d')
    await until('the second command to say it waits', () => victim.err().includes('Waiting:'))
    const pid = victim.child.pid!
    victim.child.kill('SIGKILL')
    await victim.exited
    lock.release()
    expect((await first.exited).code, first.err()).toBe(0)

    // Any command that looks at the queue (here `job list`) settles it, if the first did not already.
    const list = cli('--json', 'job', 'list')
    expect((await list.exited).code, list.err()).toBe(0)
    const orphan = jobOf('d')!
    expect(orphan.status).toBe('failed')
    expect(orphan.started_at).toBeNull()
    expect(orphan.error).toMatch(new RegExp(`^Not run: the process that queued it \\(pid ${pid}\\) stopped before starting it \\(process ${pid} (no longer exists|has exited)`))
    expect(documents()).toBe(6)
  }, 600_000)

  describe('CLI + browser mode', () => {
    let serve: Proc
    let app: { origin: string; token: string }

    beforeAll(async () => {
      serve = start('serve.ts', ['--port', '0', '--data-dir', dataDir], true)
      const m = await until('browser mode to print its URL', () => /(http:\/\/127\.0\.0\.1:\d+)\/\?token=([\w-]+)/.exec(serve.out()) ?? (serve.child.exitCode !== null && Promise.reject(new Error(serve.err()))))
      app = { origin: m[1]!, token: m[2]! }
    }, 600_000)
    afterAll(async () => {
      if (serve.child.exitCode === null && serve.child.signalCode === null) {
        serve.child.kill('SIGTERM')
        await serve.exited
      }
    })

    const startIngest = (folder: string) =>
      callApi<{ id: string; status: string }>(app, 'job.start', { kind: 'corpus.ingest', workspaceId, params: { source: { kind: 'folder', path: folders[folder] } } }).catch((err: Error) => {
        throw new Error(`${err.message} (${String(err.cause)}); browser mode (exit ${serve.child.exitCode ?? serve.child.signalCode}) said:\n${serve.out()}\n${serve.err()}`)
      })
    const apiJob = async (id: string) => (await callApi<Array<{ id: string; status: string; message: string; queue?: { waitingFor: string } }>>(app, 'job.list', { workspaceId, limit: 500 })).find((j) => j.id === id)

    it('each side starts its job when the other side’s job ends', async () => {
      const lock = holdCorpus()
      const inApp = await startIngest('e')
      await until('the app’s ingest to run', () => jobOf('e')?.status === 'running')
      expect(jobOf('e')!.owner_pid).toBe(serve.child.pid)

      // The CLI's job waits for the app's.
      const command = ingest('f')
      await until('the command to say it waits', () => command.err().includes('Waiting:'))
      expect(command.err()).toMatch(new RegExp(`corpus\\.ingest running in this workspace \\(process ${serve.child.pid}\\)`))
      // And a job queued next in the app waits for the CLI's (first come, first served, across processes).
      const later = await startIngest('g')
      await until('the app’s second job to wait behind the command’s', () => jobOf('g')?.status === 'queued' && jobOf('f')?.status === 'queued')
      expect((await apiJob(later.id))?.queue).toMatchObject({ position: 2, waitingFor: expect.stringMatching(/^corpus\.ingest running in this workspace: one corpus writer at a time/) })

      lock.release()
      expect((await command.exited).code, command.err()).toBe(0)
      expect(command.out()).toMatch(/^done: /m)
      await until('the app’s second job to end', async () => (await apiJob(later.id))?.status === 'done')
      expect((await apiJob(inApp.id))?.status).toBe('done')
      const [e, f, g] = [jobOf('e')!, jobOf('f')!, jobOf('g')!]
      expect(f.owner_pid).toBe(command.child.pid)
      expect(g.owner_pid).toBe(serve.child.pid)
      expect(f.started_at! >= e.finished_at!).toBe(true)
      expect(g.started_at! >= f.finished_at!).toBe(true)
      expect(documents()).toBe(12)
    }, 600_000)

    it('the app adopts a queued job whose command was killed, says so, and runs it', async () => {
      // Changed content, so the ingest has work to do again.
      for (const name of ['e', 'a']) writeFileSync(join(folders[name]!, `${name}-more.txt`), `Document ${name} more. The lake of ${name}ville is deep.\n`)
      const lock = holdCorpus()
      const inApp = await startIngest('e')
      await until('the app’s ingest to run', () => jobOf('e')?.status === 'running' && jobs().find((j) => j.id === inApp.id)?.status === 'running')
      const victim = ingest('a')
      await until('the command to say it waits', () => victim.err().includes('Waiting:'))
      const orphanId = jobs().filter((j) => j.status === 'queued').at(-1)!.id
      const pid = victim.child.pid!
      victim.child.kill('SIGKILL')
      await victim.exited

      await until('the app to adopt the job', () => serve.err().includes(`Job ${orphanId} (corpus.ingest): Adopted by process ${serve.child.pid}: the process that queued it (pid ${pid}) stopped before starting it`))
      expect((await apiJob(orphanId))?.message).toMatch(/\(Adopted by process \d+: the process that queued it/)
      lock.release()
      await until('the adopted job to end', async () => (await apiJob(orphanId))?.status === 'done')
      const adopted = jobs().find((j) => j.id === orphanId)!
      expect(adopted.owner_pid).toBe(serve.child.pid)
      expect(documents()).toBe(14)
    }, 600_000)
  })
})
