/**
 * Storage failures end cleanly, on real filesystems: a data folder on a small tmpfs that fills during a
 * training run, and a read-only bind mount of a data folder. Both need `mount` (root, or a container with
 * CAP_SYS_ADMIN, as the CI runs); without it they skip and say so. A full disk is made for real (a filler
 * file leaves a few hundred KiB), so SQLite, Node and the job worker meet it as they would in use:
 *   - `train` exits non-zero on its own with one line naming the folder, its free space and the command
 *     that resumes (no stack trace); the job and the run are not left "running" (the next start records
 *     what the full disk kept this one from writing); both databases pass integrity_check; after space is
 *     freed, `train --resume` finishes the run.
 *   - on a read-only folder, commands that only read work, and the others say which folder is not writable.
 */
import { execFileSync } from 'node:child_process'
import { closeSync, mkdirSync, openSync, readdirSync, rmSync, statfsSync, writeFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateDemoWorld } from '../../main/corpus/demo-world'
import { storageFailureOf } from '../../main/db/storage-error'
import { cliOutcome, withBackend } from '../helpers/cli'
import { cliInProcess } from '../helpers/cli-in-process'
import { heldOpen } from '../helpers/open-files'
import { tempDir } from '../helpers/services'

const tmp = tempDir('harness-lab-storage-')
const mounted: string[] = []

/** Mounts `args` at a new folder under the temp dir, or returns why it cannot. */
function mount(name: string, args: string[]): string | { cannot: string } {
  const at = join(tmp.dir, name)
  mkdirSync(at, { recursive: true })
  try {
    execFileSync('mount', [...args, at], { stdio: 'pipe' })
  } catch (err) {
    return { cannot: String((err as { stderr?: Buffer }).stderr ?? (err as Error).message).trim() }
  }
  mounted.unshift(at)
  return at
}

const probe = mount('probe', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs'])
const cannotMount = typeof probe === 'string' ? null : probe.cannot
if (cannotMount) console.warn(`storage-failures: cannot mount a filesystem here (${cannotMount}): skipping the full-disk and read-only tests (they run as root, as the CI does)`)

afterAll(() => {
  const stuck: string[] = []
  for (const at of mounted) {
    try {
      execFileSync('umount', [at], { stdio: 'pipe' })
    } catch {
      // Busy (a test failed while something held it): detached now, freed when its last holder closes.
      try {
        execFileSync('umount', ['-l', at], { stdio: 'pipe' })
      } catch {
        stuck.push(at)
      }
    }
  }
  // A folder still mounted cannot be removed; it is left for the machine's own cleanup.
  if (stuck.length === 0) tmp.cleanup()
  else console.warn(`storage-failures: could not unmount ${stuck.join(', ')}; ${tmp.dir} is left in place`)
})

/** Fills the filesystem holding `folder` with one file until `leaveBytes` (about) are free; returns the file. */
function fill(folder: string, leaveBytes: number): string {
  const file = join(folder, 'filler')
  const fd = openSync(file, 'w')
  const chunk = Buffer.alloc(1 << 20)
  try {
    for (;;) {
      const free = Number(statfsSync(folder).bavail) * Number(statfsSync(folder).bsize)
      if (free <= leaveBytes) break
      writeSync(fd, chunk, 0, Math.min(chunk.length, free - leaveBytes))
    }
  } finally {
    closeSync(fd)
  }
  return file
}

const integrity = (file: string): string => {
  const db = new SQLite(file, { readonly: true })
  try {
    return db.pragma('integrity_check', { simple: true }) as string
  } finally {
    db.close()
  }
}
const rows = <T>(file: string, sql: string): T[] => {
  const db = new SQLite(file, { readonly: true })
  try {
    return db.prepare(sql).all() as T[]
  } finally {
    db.close()
  }
}

describe('storage failures, told from every other error', () => {
  it('by code (SQLite primary and extended, the operating system) and, across a thread, by the words SQLite and Node use', () => {
    const coded = (code: string) => Object.assign(new Error('x'), { code })
    expect(['SQLITE_FULL', 'ENOSPC', 'EDQUOT'].map((c) => storageFailureOf(coded(c)))).toEqual(['full', 'full', 'full'])
    expect(['SQLITE_READONLY', 'SQLITE_READONLY_DBMOVED', 'EROFS'].map((c) => storageFailureOf(coded(c)))).toEqual(['read-only', 'read-only', 'read-only'])
    expect(['SQLITE_IOERR', 'SQLITE_IOERR_WRITE', 'EIO'].map((c) => storageFailureOf(coded(c)))).toEqual(['io', 'io', 'io'])
    expect(storageFailureOf('database or disk is full')).toBe('full')
    expect(storageFailureOf("ENOSPC: no space left on device, write")).toBe('full')
    expect(storageFailureOf('attempt to write a readonly database')).toBe('read-only')
    expect(storageFailureOf('disk I/O error')).toBe('io')
    for (const other of [coded('SQLITE_BUSY'), coded('SQLITE_CONSTRAINT_UNIQUE'), coded('ENOENT'), new Error('Question set 3 has no questions'), 'cancelled']) expect(storageFailureOf(other)).toBeNull()
  })
})

describe.skipIf(cannotMount !== null)('a data folder whose disk fills during a training run', () => {
  let data: string
  let disk: string
  let workspaceId: string
  let workspaceDb: string

  beforeAll(async () => {
    const at = mount('full', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs'])
    if (typeof at !== 'string') throw new Error(at.cannot)
    disk = at
    data = join(disk, 'data')
    await withBackend(data, async (b) => {
      workspaceId = (await b.call('workspace.create', { name: 'full' })).id
      const ingest = await b.call('job.start', { kind: 'corpus.ingest', workspaceId, params: { source: { kind: 'demo', seed: 1, size: 1 } } })
      expect((await b.services.jobs.waitFor(ingest.id)).status).toBe('done')
      workspaceDb = await b.services.workspaces.databaseFile(workspaceId)
    })
  }, 600_000)

  it('ends the command with one line (folder, free space, the resume command), leaves nothing running, and resumes once space is freed', async () => {
    // A few hundred KiB: the run starts, and its first steps' rollouts fill the disk.
    const filler = fill(disk, 700 * 1024)
    const failed = await cliOutcome(data, ['train', workspaceId, '--env', 'graph-menu', '--split', '0:40', '--held-out', '40:20', '--steps', '6'])
    // It ended by itself (a hang is killed at 300 s and has no code).
    expect(failed.code, failed.stderr).toBe(1)
    expect(failed.stderr).not.toMatch(/^\s+at /m)
    expect(failed.stderr).not.toMatch(/SqliteError/)
    const errors = failed.stderrLines.filter((l) => l.text.startsWith('Error:'))
    expect(errors).toHaveLength(1)
    const line = errors[0]!.text
    const resume = new RegExp(
      `^Error: job \\S+ \\(train\\.run\\) failed: the disk holding ${data.replace(/[/.]/g, '\\$&')} is full \\([\\d.]+ (B|KiB) free\\): .*; free some space, then continue with: npm run cli -- --data-dir ${data.replace(/[/.]/g, '\\$&')} train ${workspaceId} --resume (\\d+)$`,
    )
    expect(line).toMatch(resume)
    const runId = Number(resume.exec(line)![2])
    // From the last progress line to the exit (the full disk met in between), for the report.
    const progress = failed.stderrLines.filter((l) => /^\s*\d+%/.test(l.text)).at(-1)
    console.log(`storage-failures: train on a full disk exited ${((progress?.msBeforeExit ?? 0) / 1000).toFixed(1)} s after its last progress line: ${line}`)

    rmSync(filler)
    // The next start records what the full disk kept the last one from writing: no job and no run is left running.
    // (The commands after a failure run through main/cli.ts's entry in this process; the failures are their own processes.)
    expect((await cliInProcess(data, ['job', 'list'])).code).toBe(0)
    const jobs = rows<{ id: string; status: string; error: string | null }>(join(data, 'app.db'), "select id, status, error from jobs where kind = 'train.run'")
    expect(jobs.map((j) => j.status)).toEqual(['failed'])
    const runs = rows<{ id: number; status: string }>(workspaceDb, "select id, status from runs where kind = 'train'")
    expect(runs).toEqual([{ id: runId, status: 'failed' }])
    expect(integrity(join(data, 'app.db'))).toBe('ok')
    expect(integrity(workspaceDb)).toBe('ok')

    const resumed = await cliInProcess(data, ['--json', 'train', workspaceId, '--resume', String(runId)])
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(JSON.parse(resumed.stdout)).toMatchObject({ runId, status: 'done' })
    expect(rows<{ steps: number }>(workspaceDb, `select count(*) as steps from train_steps where run_id = ${runId}`)[0]!.steps).toBe(6)
    expect(integrity(workspaceDb)).toBe('ok')
  }, 900_000)

  it('stops an ingest the same way (never as a "done" job with failed files), and running it again completes it', async () => {
    // Some 1.5 MB of prose in 300 files, read from outside the full disk.
    const source = join(tmp.dir, 'texts')
    mkdirSync(source, { recursive: true })
    const articles = generateDemoWorld({ seed: 4, size: 1 }).documents
    for (let i = 0; i < 300; i++) writeFileSync(join(source, `f${String(i).padStart(3, '0')}.txt`), `${articles[i % articles.length]!.text}\n\nCopy ${i}.`.repeat(3))
    const filler = fill(disk, 500 * 1024)
    const failed = await cliOutcome(data, ['corpus', 'ingest', workspaceId, '--folder', source])
    expect(failed.code, failed.stderr).toBe(1)
    expect(failed.stderr).not.toMatch(/^\s+at /m)
    const errors = failed.stderrLines.filter((l) => l.text.startsWith('Error:'))
    expect(errors).toHaveLength(1)
    expect(errors[0]!.text).toMatch(new RegExp(`^Error: job \\S+ \\(corpus\\.ingest\\) failed: the disk holding .* is full \\(.*; free some space, then continue with: npm run cli -- --data-dir \\S+ corpus ingest ${workspaceId} --folder ${source.replace(/[/.]/g, '\\$&')}$`))
    rmSync(filler)
    const again = await cliInProcess(data, ['--json', 'corpus', 'ingest', workspaceId, '--folder', source])
    expect(again.code, again.stderr).toBe(0)
    const files = rows<{ status: string; n: number }>(workspaceDb, "select status, count(*) as n from source_files where path like '%/texts/%' or path like 'f%' group by status")
    expect(files).toEqual([{ status: 'ok', n: 300 }])
    const jobs = rows<{ status: string }>(join(data, 'app.db'), "select status from jobs where kind = 'corpus.ingest' order by created_at")
    expect(jobs.map((j) => j.status)).toEqual(['done', 'failed', 'done'])
    expect(integrity(workspaceDb)).toBe('ok')
  }, 900_000)
})

describe.skipIf(cannotMount !== null)('a read-only data folder', () => {
  let ro: string
  let workspaceId: string

  beforeAll(async () => {
    const source = join(tmp.dir, 'source')
    await withBackend(source, async (b) => {
      workspaceId = (await b.call('workspace.create', { name: 'read-only' })).id
      const ingest = await b.call('job.start', { kind: 'corpus.ingest', workspaceId, params: { source: { kind: 'demo', seed: 2, size: 0.3 } } })
      expect((await b.services.jobs.waitFor(ingest.id)).status).toBe('done')
    })
    // Closed cleanly: no -wal or -shm files are left, and none can be made on the read-only mount.
    expect(readdirSync(source).filter((f) => f.endsWith('-wal') || f.endsWith('-shm'))).toEqual([])
    const at = mount('ro', ['--bind', '-o', 'ro', source])
    if (typeof at !== 'string') throw new Error(at.cannot)
    ro = at
  }, 600_000)

  it('serves the commands that only read, and names the folder for the rest', async () => {
    // Each command through main/cli.ts's entry in this process; one that reads and one that writes also as their own processes, which print the same.
    const stats = await cliInProcess(ro, ['--json', 'corpus', 'stats', workspaceId])
    expect(stats.code, stats.stderr).toBe(0)
    expect(JSON.parse(stats.stdout)).toMatchObject({ documents: expect.any(Number) })
    expect(JSON.parse(stats.stdout).documents).toBeGreaterThan(0)
    for (const args of [['workspace', 'list'], ['runs', 'list', workspaceId], ['job', 'list']]) {
      const r = await cliInProcess(ro, args)
      expect([args.join(' '), r.code, r.stderr]).toEqual([args.join(' '), 0, ''])
    }
    const refused: Array<{ args: string[]; code: number | null; stderr: string }> = []
    for (const [args, what] of [
      [['workspace', 'create', 'another'], 'creating a workspace'],
      [['eval', workspaceId, '--env', 'graph-menu', '--limit', '2'], 'the eval.run job'],
    ] as const) {
      const r = await cliInProcess(ro, [...args])
      expect(r.code).toBe(1)
      expect(r.stderr.trim().split('\n')).toEqual([
        `Error: The data folder ${ro} is not writable (read-only file system): ${what} writes to it; commands that only read work; make it writable (or give another --data-dir), then run: npm run cli -- --data-dir ${ro} ${args.join(' ')}`,
      ])
      refused.push({ args: [...args], code: r.code, stderr: r.stderr })
    }
    // Every command closed what it opened (the fallback that reads a database into memory included), so the mount is not busy.
    expect(heldOpen(ro)).toEqual([])
    const [reads, writes] = await Promise.all([cliOutcome(ro, ['--json', 'corpus', 'stats', workspaceId]), cliOutcome(ro, refused[0]!.args)])
    expect([reads.code, reads.stdout, reads.stderr]).toEqual([0, stats.stdout, ''])
    expect([writes.code, writes.stderr]).toEqual([1, refused[0]!.stderr])
  }, 600_000)
})
