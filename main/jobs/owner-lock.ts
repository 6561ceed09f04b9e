import { mkdirSync, readFileSync, readdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import SQLite from 'better-sqlite3'
import { nativeBindingPath } from '../db/native-binding'
import { bootId, isExitedState, processExists, readProcStat } from './process-alive'
import { z } from 'zod'
import { jsonColumn } from '../db/json-column'

const ownerRecordFile = jsonColumn('the owner record file', z.object({ pid: z.number(), startedAt: z.string(), startTicks: z.string().nullable().optional(), bootId: z.string().nullable().optional() }))

/**
 * Who owns a job: a process that holds an operating-system lock for as long as it lives.
 *
 * Every process that runs jobs on a data folder holds an exclusive SQLite lock on
 * `<data>/job-owners/<pid>.lock` (fcntl on POSIX, LockFileEx on Windows) and writes
 * `<pid>.json` beside it with its start time and boot id. The kernel drops the lock the moment the
 * process exits, before its parent reaps it, so a zombie holds nothing; an unrelated process that is
 * given the same pid later (after a reboot, or once pids wrap) never took the lock, and on Linux its
 * start time or boot id differs from the record as well. No heartbeat, no timer: liveness is a
 * question asked when needed, answered from the lock and /proc.
 */

const OWNERS_DIR = 'job-owners'

export interface OwnerRecord {
  pid: number
  /** Linux: field 22 of /proc/<pid>/stat when the owner started; null elsewhere. */
  startTicks: string | null
  /** Linux: /proc/sys/kernel/random/boot_id; null elsewhere. */
  bootId: string | null
  startedAt: string
}

export interface OwnerStatus {
  alive: boolean
  /** Why, in words that can go into a job's error. */
  reason: string
}

/** One key per data folder, however its path is spelled (symlinks followed once it exists). */
export function dataDirKey(dataDir: string): string {
  try {
    return realpathSync(dataDir)
  } catch {
    return resolve(dataDir)
  }
}

export const ownerFiles = (dataDir: string, pid: number): { dir: string; lock: string; record: string } => {
  const dir = join(dataDir, OWNERS_DIR)
  return { dir, lock: join(dir, `${pid}.lock`), record: join(dir, `${pid}.json`) }
}

const openLockFile = (file: string, options: SQLite.Options): SQLite.Database => {
  const nativeBinding = nativeBindingPath()
  return new SQLite(file, { ...options, ...(nativeBinding ? { nativeBinding } : {}) })
}

/** Writes an owner record atomically (a reader sees the old one or the new one, never half). */
export function writeOwnerRecord(dataDir: string, record: OwnerRecord): void {
  const files = ownerFiles(dataDir, record.pid)
  mkdirSync(files.dir, { recursive: true })
  const tmp = `${files.record}.${process.pid}.tmp`
  writeFileSync(tmp, `${JSON.stringify(record)}\n`)
  renameSync(tmp, files.record)
}

export function readOwnerRecord(dataDir: string, pid: number): OwnerRecord | null {
  try {
    // A record this build cannot read (torn, hand-edited, older) is no owner: the lock can be taken.
    const r = ownerRecordFile.read(readFileSync(ownerFiles(dataDir, pid).record, 'utf8'))
    if (r.pid !== pid) return null
    return { pid, startTicks: r.startTicks ?? null, bootId: r.bootId ?? null, startedAt: r.startedAt }
  } catch {
    return null
  }
}

/** This process as an owner record. */
export function currentOwnerRecord(): OwnerRecord {
  return { pid: process.pid, startTicks: readProcStat(process.pid)?.startTicks ?? null, bootId: bootId(), startedAt: new Date().toISOString() }
}

type LockProbe = 'held' | 'free' | 'missing' | { unknown: string }

/** Tries to take a shared lock on an owner's lock file without waiting: refused (SQLITE_BUSY) means its owner holds it. */
export function probeOwnerLock(file: string): LockProbe {
  let db: SQLite.Database | undefined
  try {
    db = openLockFile(file, { readonly: true, fileMustExist: true, timeout: 0 })
    db.prepare('select count(*) from sqlite_master').get()
    return 'free'
  } catch (err) {
    const code = (err as { code?: string }).code ?? ''
    if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_')) return 'held'
    if (code === 'SQLITE_CANTOPEN' || code === 'ENOENT' || /does not exist/i.test((err as Error).message)) return 'missing'
    return { unknown: (err as Error).message }
  } finally {
    db?.close()
  }
}

/**
 * Whether the process that recorded itself as `pid` on this data folder still runs. Checked in
 * order: the pid exists and has not exited (on Linux a zombie is dead); it is the process that wrote
 * the owner record (same start time and boot); and it holds its lock. This process is always alive.
 */
export function ownerStatus(dataDir: string, pid: number): OwnerStatus {
  if (!Number.isInteger(pid) || pid <= 0) return { alive: false, reason: 'no owner process recorded' }
  if (pid === process.pid) return { alive: true, reason: 'this process' }
  const linux = process.platform === 'linux'
  const stat = linux ? readProcStat(pid) : null
  if (linux) {
    if (!stat) return { alive: false, reason: `process ${pid} no longer exists` }
    if (isExitedState(stat.state)) return { alive: false, reason: `process ${pid} has exited (a zombie not yet reaped by its parent)` }
  } else if (!processExists(pid)) {
    return { alive: false, reason: `process ${pid} no longer exists` }
  }
  const record = readOwnerRecord(dataDir, pid)
  if (!record) return { alive: false, reason: `process ${pid} never registered as a job owner of this data folder (its pid belongs to another program now)` }
  if (linux && record.bootId !== null && bootId() !== null && record.bootId !== bootId()) {
    return { alive: false, reason: `process ${pid} ran before the machine restarted (its pid was given to another program)` }
  }
  if (linux && record.startTicks !== null && stat!.startTicks !== record.startTicks) {
    return { alive: false, reason: `pid ${pid} was reused: the process there now started at another time than the job's owner` }
  }
  const probe = probeOwnerLock(ownerFiles(dataDir, pid).lock)
  if (probe === 'held') return { alive: true, reason: `process ${pid} holds its owner lock` }
  if (probe === 'free') return { alive: false, reason: `process ${pid} no longer holds its owner lock` }
  if (probe === 'missing') return { alive: false, reason: `process ${pid} has no owner lock` }
  // Cannot tell (an unreadable lock file): err on the side of a live owner, and say why.
  return { alive: true, reason: `the owner lock of process ${pid} could not be checked (${probe.unknown})` }
}

/** The lock this process holds on a data folder while it can run jobs there. One per process and folder, shared by the job managers in it. */
export class OwnerLock {
  private static readonly held = new Map<string, { lock: OwnerLock; refs: number }>()

  private constructor(
    private readonly dataDir: string,
    private readonly db: SQLite.Database,
  ) {}

  /** Takes (or shares) this process's owner lock on `dataDir`; release() once per acquire(). */
  static acquire(dataDir: string): OwnerLock {
    mkdirSync(join(dataDir, OWNERS_DIR), { recursive: true })
    const key = dataDirKey(dataDir)
    const existing = OwnerLock.held.get(key)
    if (existing) {
      existing.refs += 1
      return existing.lock
    }
    const files = ownerFiles(key, process.pid)
    sweepDeadOwners(key)
    // A checker holding a shared lock for a moment delays this; the busy timeout waits it out.
    const db = openLockFile(files.lock, { timeout: 5000 })
    try {
      db.exec('BEGIN EXCLUSIVE')
    } catch (err) {
      db.close()
      throw new Error(`Could not take the job owner lock ${files.lock}: ${(err as Error).message}`)
    }
    // The record is written once the lock is held, so a record with a held lock is always this process.
    try {
      writeOwnerRecord(key, currentOwnerRecord())
    } catch (err) {
      // A full or read-only disk: the lock goes with the failure instead of staying held by a handle nobody closes.
      db.close()
      throw err
    }
    const lock = new OwnerLock(key, db)
    OwnerLock.held.set(key, { lock, refs: 1 })
    return lock
  }

  /** Whether this process holds the owner lock of `dataDir`. */
  static holds(dataDir: string): boolean {
    return OwnerLock.held.has(dataDirKey(dataDir))
  }

  release(): void {
    const entry = OwnerLock.held.get(this.dataDir)
    if (!entry || entry.lock !== this) return
    entry.refs -= 1
    if (entry.refs > 0) return
    OwnerLock.held.delete(this.dataDir)
    const files = ownerFiles(this.dataDir, process.pid)
    // Record first: from here on, readers see no owner, which is the truth once the jobs are settled.
    rmSync(files.record, { force: true })
    try {
      this.db.exec('ROLLBACK')
    } catch {
      // Closing drops the lock anyway.
    }
    this.db.close()
    rmSync(files.lock, { force: true })
    rmSync(`${files.lock}-journal`, { force: true })
  }
}

/**
 * Removes the files of owners whose pid no longer exists at all (a crash leaves them behind). Files of
 * pids that exist are left alone, even when they are stale: removing a lock file that another process
 * is about to lock would let two processes think they hold it.
 */
function sweepDeadOwners(dataDir: string): void {
  const dir = join(dataDir, OWNERS_DIR)
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return
  }
  for (const name of names) {
    const m = /^(\d+)\.(lock|json|lock-journal)$/.exec(name)
    if (!m) continue
    const pid = Number(m[1])
    if (pid === process.pid || processExists(pid)) continue
    rmSync(join(dir, name), { force: true })
  }
}
