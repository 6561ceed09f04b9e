import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import Database from 'better-sqlite3'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { OwnerLock, ownerFiles, ownerStatus, readOwnerRecord, writeOwnerRecord } from '../../main/jobs/owner-lock'
import { bootId, parseProcStat, processExists, readProcStat } from '../../main/jobs/process-alive'
import { startBackend, tempDir, type TestBackend } from '../helpers/services'

const root = fileURLToPath(new URL('../..', import.meta.url))
const ownerModule = fileURLToPath(new URL('../../main/jobs/owner-lock.ts', import.meta.url))
const linux = process.platform === 'linux'

/** A second process that becomes a job owner of `dataDir` (the real OwnerLock) and then waits. */
const OWNER_CHILD = `
const { OwnerLock } = await import(process.env.OWNER_MODULE)
OwnerLock.acquire(process.env.OWNER_DATA_DIR)
process.stdout.write('ready ' + process.pid + '\\n')
setInterval(() => {}, 1 << 30)
`

interface Spawned {
  /** The owner's pid (for the zombie case, the grandchild's). */
  pid: number
  /** What to kill at the end: the direct child. */
  child: ChildProcess
}

const children: ChildProcess[] = []
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
})

/** Reads lines from a child's stdout until one starts with `ready`, within 20 s. */
function readyPid(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = ''
    const timer = setTimeout(() => reject(new Error(`owner child did not start: ${text}`)), 20_000)
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString()
      const m = /ready (\d+)/.exec(text)
      if (m) {
        clearTimeout(timer)
        resolve(Number(m[1]))
      }
    })
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`owner child exited (${code}) before it was ready: ${text}`))
    })
  })
}

const childEnv = (dataDir: string): NodeJS.ProcessEnv => ({ ...process.env, OWNER_MODULE: ownerModule, OWNER_DATA_DIR: dataDir, OWNER_CODE: OWNER_CHILD })

/** A live owner process holding its lock on `dataDir`. */
async function liveOwner(dataDir: string): Promise<Spawned> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', OWNER_CHILD], { cwd: root, env: childEnv(dataDir), stdio: ['ignore', 'pipe', 'inherit'] })
  children.push(child)
  return { pid: await readyPid(child), child }
}

/**
 * An owner whose parent will never reap it: `sh` starts the owner in the background, then becomes
 * `sleep` (exec), which never calls wait(). Killed, the owner stays a zombie until sleep ends.
 */
async function unreapedOwner(dataDir: string): Promise<Spawned> {
  const script = `"${process.execPath}" --import tsx --input-type=module -e "$OWNER_CODE" & exec sleep 60`
  const child = spawn('sh', ['-c', script], { cwd: root, env: childEnv(dataDir), stdio: ['ignore', 'pipe', 'inherit'] })
  children.push(child)
  return { pid: await readyPid(child), child }
}

/** Waits (at most 5 s) until /proc says the pid is a zombie. */
async function untilZombie(pid: number): Promise<void> {
  const deadline = Date.now() + 5000
  while (readProcStat(pid)?.state !== 'Z') {
    if (Date.now() > deadline) throw new Error(`pid ${pid} did not become a zombie: ${JSON.stringify(readProcStat(pid))}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

/** A job row left "running" by `pid`, as a crash or a kill leaves it. */
function insertRunning(backend: TestBackend, id: string, workspaceId: string, pid: number): void {
  backend.services.app.raw
    .prepare(
      `insert into jobs (id, kind, workspace_id, status, progress, stage, message, params_json, created_at, started_at, owner_pid)
       values (?, 'db.maintenance', ?, 'running', 0.5, 'integrity', 'Working', '{"vacuum":false}', ?, ?, ?)`,
    )
    .run(id, workspaceId, new Date().toISOString(), new Date().toISOString(), pid)
}

describe('/proc parsing', () => {
  it('reads state and start time even when the command name holds spaces and parentheses', () => {
    const rest = Array.from({ length: 50 }, (_, i) => String(i + 4)).join(' ')
    const line = `1234 (evil) name (x)) S ${rest}`
    // fields after the name: state, then 4 5 6 ...; field 22 is the 20th after the name.
    expect(parseProcStat(line)).toEqual({ state: 'S', startTicks: '22' })
    expect(parseProcStat('garbage')).toBeNull()
  })

  it.runIf(linux)('knows this process', () => {
    const me = readProcStat(process.pid)
    expect(me?.state).toMatch(/[RS]/)
    expect(me?.startTicks).toMatch(/^\d+$/)
    expect(bootId()).toMatch(/^[0-9a-f-]{36}$/)
  })
})

describe('job ownership', () => {
  const tmp = tempDir()
  afterAll(() => tmp.cleanup())

  it('an owner holds a lock and a record while it lives; releasing removes both', () => {
    const dir = join(tmp.dir, 'self')
    const lock = OwnerLock.acquire(dir)
    const again = OwnerLock.acquire(dir)
    expect(again).toBe(lock)
    const record = readOwnerRecord(dir, process.pid)
    expect(record).toMatchObject({ pid: process.pid, startTicks: linux ? readProcStat(process.pid)!.startTicks : null })
    lock.release()
    expect(OwnerLock.holds(dir)).toBe(true)
    again.release()
    expect(OwnerLock.holds(dir)).toBe(false)
    expect(readOwnerRecord(dir, process.pid)).toBeNull()
  })

  it('a live owner in another process is alive; killed, it is dead at once', async () => {
    const dir = join(tmp.dir, 'live')
    const owner = await liveOwner(dir)
    expect(ownerStatus(dir, owner.pid)).toMatchObject({ alive: true })
    owner.child.kill('SIGKILL')
    await new Promise((r) => owner.child.once('exit', r))
    expect(ownerStatus(dir, owner.pid)).toMatchObject({ alive: false })
  })

  it.runIf(linux)('a killed owner that its parent never reaped (a zombie) is dead, though its pid still answers kill(pid, 0)', async () => {
    const dir = join(tmp.dir, 'zombie')
    const owner = await unreapedOwner(dir)
    expect(ownerStatus(dir, owner.pid).alive).toBe(true)
    process.kill(owner.pid, 'SIGKILL')
    await untilZombie(owner.pid)
    // What the old check saw: the pid exists, so the owner looked alive forever.
    expect(processExists(owner.pid)).toBe(true)
    expect(ownerStatus(dir, owner.pid)).toEqual({ alive: false, reason: expect.stringMatching(/zombie/) })
  })

  it.runIf(linux)('a reused pid is dead: alive, but started at another time than the owner recorded (even with a lock held)', async () => {
    const dir = join(tmp.dir, 'reused')
    const other = spawn('sleep', ['30'], { stdio: 'ignore' })
    children.push(other)
    const pid = other.pid!
    await new Promise((r) => setTimeout(r, 50))
    const stat = readProcStat(pid)!
    expect(stat).not.toBeNull()
    // The lock looks held (this process holds it), so only the identity check can tell.
    const files = ownerFiles(dir, pid)
    mkdirSync(files.dir, { recursive: true })
    const holder = new Database(files.lock)
    holder.exec('BEGIN EXCLUSIVE')
    try {
      writeOwnerRecord(dir, { pid, startTicks: String(Number(stat.startTicks) - 1), bootId: bootId(), startedAt: new Date().toISOString() })
      expect(ownerStatus(dir, pid)).toEqual({ alive: false, reason: expect.stringMatching(/reused/) })
      writeOwnerRecord(dir, { pid, startTicks: stat.startTicks, bootId: '00000000-0000-0000-0000-000000000000', startedAt: new Date().toISOString() })
      expect(ownerStatus(dir, pid)).toEqual({ alive: false, reason: expect.stringMatching(/restarted/) })
      // Control: the right identity with the lock held reads as alive, so the start time is what decided above.
      writeOwnerRecord(dir, { pid, startTicks: stat.startTicks, bootId: bootId(), startedAt: new Date().toISOString() })
      expect(ownerStatus(dir, pid).alive).toBe(true)
    } finally {
      holder.exec('ROLLBACK')
      holder.close()
    }
    // The right identity but no lock: a program that merely has the pid now.
    expect(ownerStatus(dir, pid)).toEqual({ alive: false, reason: expect.stringMatching(/no longer holds/) })
    // No record at all (a pid that never was a job owner here).
    expect(ownerStatus(join(tmp.dir, 'elsewhere'), pid)).toEqual({ alive: false, reason: expect.stringMatching(/never registered/) })
  })
})

describe('jobs of a dead owner are recovered, not stuck', () => {
  const tmp = tempDir()
  afterAll(() => tmp.cleanup())

  it('a live foreign owner keeps its job; cancel and delete are refused while it lives', async () => {
    const backend = await startBackend(tmp.dir)
    const w = await backend.call('workspace.create', { name: 'foreign live' })
    const owner = await liveOwner(tmp.dir)
    insertRunning(backend, 'live-job', w.id, owner.pid)
    await expect(backend.call('job.cancel', { id: 'live-job' })).rejects.toMatchObject({ body: { code: 'CONFLICT', message: expect.stringMatching(`pid ${owner.pid}`) } })
    await expect(backend.call('workspace.delete', { id: w.id, confirmName: 'foreign live' })).rejects.toMatchObject({ body: { code: 'CONFLICT' } })
    expect((await backend.call('job.list', { workspaceId: w.id })).find((j) => j.id === 'live-job')?.status).toBe('running')
    owner.child.kill('SIGKILL')
    await new Promise((r) => owner.child.once('exit', r))
    const after = await backend.call('job.cancel', { id: 'live-job' })
    expect(after).toMatchObject({ status: 'failed', error: expect.stringMatching(/^Interrupted/) })
    await backend.close()
  })

  it.runIf(linux)('zombie owner: the job can be cancelled and its workspace deleted', async () => {
    const backend = await startBackend(tmp.dir)
    const w = await backend.call('workspace.create', { name: 'zombie owner' })
    const owner = await unreapedOwner(tmp.dir)
    insertRunning(backend, 'zombie-job', w.id, owner.pid)
    process.kill(owner.pid, 'SIGKILL')
    await untilZombie(owner.pid)
    expect(processExists(owner.pid)).toBe(true)
    const cancelled = await backend.call('job.cancel', { id: 'zombie-job' })
    expect(cancelled.status).toBe('failed')
    expect(cancelled.error).toMatch(new RegExp(`Interrupted: the process running this job \\(pid ${owner.pid}\\) stopped before it finished: .*zombie`))
    await expect(backend.call('workspace.delete', { id: w.id, confirmName: 'zombie owner' })).resolves.toEqual({ deleted: true })
    await backend.close()
  })

  it.runIf(linux)('reused pid: a job whose owner pid now belongs to another program is recovered (list, wait, delete)', async () => {
    const backend = await startBackend(tmp.dir)
    const w = await backend.call('workspace.create', { name: 'reused pid' })
    const other = spawn('sleep', ['30'], { stdio: 'ignore' })
    children.push(other)
    await new Promise((r) => setTimeout(r, 50))
    const pid = other.pid!
    const stat = readProcStat(pid)!
    // The record the job's real owner left before the machine rebooted: same pid, another start time.
    writeOwnerRecord(tmp.dir, { pid, startTicks: String(Number(stat.startTicks) + 12345), bootId: bootId(), startedAt: '2026-01-01T00:00:00.000Z' })
    insertRunning(backend, 'reused-job', w.id, pid)
    insertRunning(backend, 'reused-job-2', w.id, pid)
    expect(processExists(pid)).toBe(true)
    const listed = await backend.call('job.list', { workspaceId: w.id })
    expect(listed.find((j) => j.id === 'reused-job')).toMatchObject({ status: 'failed', error: expect.stringMatching(/reused/) })
    expect((await backend.services.jobs.waitFor('reused-job-2')).status).toBe('failed')
    await expect(backend.call('workspace.delete', { id: w.id, confirmName: 'reused pid' })).resolves.toEqual({ deleted: true })
    await backend.close()
  })

  it('at start-up, a job of this very pid that no job manager runs (left from before a restart) is recovered', async () => {
    const backend = await startBackend(tmp.dir)
    const w = await backend.call('workspace.create', { name: 'same pid' })
    insertRunning(backend, 'stale-self', w.id, process.pid)
    const second = await startBackend(tmp.dir)
    expect(await second.services.jobs.get('stale-self')).toMatchObject({ status: 'failed', error: expect.stringMatching(/does not run it/) })
    await second.close()
    await backend.close()
  })
})
