/**
 * Several processes opening one new data folder at once (two CLI commands, the app beside a CLI): each
 * migrates the new file, and none may fail. Kysely's SQLite adapter takes no migration lock, so before the
 * IMMEDIATE transaction in `migrate` the late ones failed on "table workspaces already exists" (seen as
 * `model add` refusing a file with that message under load). The processes wait at a barrier, so their
 * opens overlap whatever the machine's load.
 */
import { spawn } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { appMigrations } from '../../main/db/migrations'
import { openDatabase } from '../../main/db/open'
import { tempDir } from '../helpers/services'

const ROOT = join(import.meta.dirname, '..', '..')
const OPENERS = 6

/** A process that opens `file` with the app's migrations once `go` exists; exits 0, or 1 with the error. */
const opener = (dir: string, file: string, i: number) => {
  const script = [
    `import { existsSync, writeFileSync } from 'node:fs'`,
    `const { openDatabase } = await import(${JSON.stringify(join(ROOT, 'main', 'db', 'open.ts'))})`,
    `const { appMigrations } = await import(${JSON.stringify(join(ROOT, 'main', 'db', 'migrations.ts'))})`,
    `writeFileSync(${JSON.stringify(join(dir, `ready-${i}`))}, '')`,
    `while (!existsSync(${JSON.stringify(join(dir, 'go'))})) await new Promise((r) => setTimeout(r, 2))`,
    `try { const db = await openDatabase(${JSON.stringify(file)}, appMigrations); await db.close() } catch (e) { console.error(e.message); process.exit(1) }`,
  ].join('\n')
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  return new Promise<{ code: number | null; stderr: string }>((resolve) => child.once('exit', (code) => resolve({ code, stderr })))
}

describe('migrations from several processes at once', () => {
  const tmp = tempDir()
  afterAll(() => tmp.cleanup())

  it('each process opens the new file; the schema is applied once', async () => {
    const file = join(tmp.dir, 'data', 'app.db')
    const runs = Array.from({ length: OPENERS }, (_, i) => opener(tmp.dir, file, i))
    await vi.waitFor(() => expect(Array.from({ length: OPENERS }, (_, i) => existsSync(join(tmp.dir, `ready-${i}`))).every(Boolean)).toBe(true), { timeout: 300_000, interval: 20 })
    writeFileSync(join(tmp.dir, 'go'), '')
    const outcomes = await Promise.all(runs)
    expect(outcomes.map((o) => o.stderr.trim())).toEqual(Array(OPENERS).fill(''))
    expect(outcomes.map((o) => o.code)).toEqual(Array(OPENERS).fill(0))
    const opened = await openDatabase<never>(file, appMigrations)
    const applied = opened.raw.prepare('select name from kysely_migration order by name').pluck().all()
    expect(applied).toEqual(Object.keys(appMigrations).sort())
    await opened.close()
  }, 600_000)
})
