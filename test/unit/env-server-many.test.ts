/**
 * Several environment servers over one workspace file, as a cluster runs one per node: two real
 * `npm run env-server -- --db FILE` processes (each with its worker threads) serve episodes from the same
 * file read-only, which stays byte for byte as it was; with `--store all` each keeps its episodes in a run
 * of its own in that file.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSqlite } from '../../main/db/open'
import { openDemoWorkspace } from '../helpers/corpus'
import { tempDir } from '../helpers/services'

type Json = Record<string, any>
interface Running {
  url: string
  token: string
  child: ChildProcess
}

const root = join(import.meta.dirname, '../..')
const tmp = tempDir('harness-lab-many-')
const file = join(tmp.dir, 'workspace.db')
const children: ChildProcess[] = []

/** Starts `npm run env-server` (its script under tsx) on a free port; resolves once it printed its URL and token. */
function serve(...args: string[]): Promise<Running> {
  const child = spawn(join(root, 'node_modules/.bin/tsx'), ['scripts/env-server.ts', '--db', file, '--port', '0', '--workers', '1', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  return new Promise((resolve, reject) => {
    let out = ''
    let err = ''
    child.stdout!.on('data', (c) => {
      out += String(c)
      const url = /URL\s+(\S+)/.exec(out)?.[1]
      const token = /token\s+(\S+)/.exec(out)?.[1]
      if (url && token && /workers/.test(out)) resolve({ url, token, child })
    })
    child.stderr!.on('data', (c) => (err += String(c)))
    child.on('exit', (code) => reject(new Error(`env-server exited ${code}: ${err || out}`)))
  })
}

const stop = (s: Running) =>
  new Promise<void>((resolve) => {
    if (s.child.exitCode !== null) return resolve()
    s.child.once('exit', () => resolve())
    s.child.kill('SIGTERM')
  })

async function ok(s: Running, path: string, body: unknown): Promise<Json> {
  const res = await fetch(`${s.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const json = (await res.json()) as Json
  if (res.status !== 200) throw new Error(`${path} -> ${res.status} ${JSON.stringify(json)}`)
  return json
}

/** One short graph-menu episode; returns the finish answer. */
async function play(s: Running, index: number, seed: number): Promise<Json> {
  const created = await ok(s, '/v1/episodes', { environment: 'graph-menu', set: 1, index, seed })
  let menu = created.menu as Json[]
  for (let t = 0, done = false; !done; t++) {
    const pick = t >= 2 ? (menu.find((m) => m.type === 'ANSWER') ?? menu[0]!) : (menu.find((m) => m.type === 'SELECT') ?? menu[0]!)
    const step = await ok(s, `/v1/episodes/${created.episode_id}/step`, { menu_id: pick.id })
    done = step.done
    menu = step.menu
  }
  return ok(s, `/v1/episodes/${created.episode_id}/finish`, {})
}

const digest = () => createHash('sha256').update(readFileSync(file)).digest('hex')

beforeAll(async () => {
  const demo = await openDemoWorkspace(5, 0.3)
  demo.db.raw.pragma('wal_checkpoint(TRUNCATE)')
  copyFileSync(demo.db.raw.name, file)
  await demo.close()
}, 600_000)
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL')
  tmp.cleanup()
})

describe('several environment servers over one workspace file', () => {
  it('serve the same episodes read-only, leaving the file unchanged', async () => {
    const before = digest()
    const [a, b] = await Promise.all([serve(), serve()])
    try {
      const [ra, rb] = await Promise.all([Promise.all([0, 1, 2].map((i) => play(a, i, 7))), Promise.all([0, 1, 2].map((i) => play(b, i, 7)))])
      // Same question and seed, same episode, whichever server played it; nothing stored.
      expect(rb.map((r) => [r.reward, r.metrics])).toEqual(ra.map((r) => [r.reward, r.metrics]))
      expect([...ra, ...rb].every((r) => r.stored_run_id === null)).toBe(true)
    } finally {
      await Promise.all([stop(a), stop(b)])
    }
    expect(digest()).toBe(before)
  }, 600_000)

  it('with --store all, each server stores its episodes in a run of its own', async () => {
    const [a, b] = await Promise.all([serve('--store', 'all'), serve('--store', 'all')])
    let runs: number[]
    try {
      const [ra, rb] = await Promise.all([Promise.all([0, 1].map((i) => play(a, i, 1))), Promise.all([0, 1].map((i) => play(b, i, 1)))])
      runs = [...new Set([...ra, ...rb].map((r) => r.stored_run_id as number))]
      expect(new Set(ra.map((r) => r.stored_run_id)).size).toBe(1)
      expect(new Set(rb.map((r) => r.stored_run_id)).size).toBe(1)
      expect(runs).toHaveLength(2)
    } finally {
      await Promise.all([stop(a), stop(b)])
    }
    const raw = openSqlite(file, { readonly: true })
    try {
      for (const run of runs) {
        expect(raw.prepare('select status from runs where id = ?').get(run)).toEqual({ status: 'done' })
        expect(raw.prepare('select count(*) as n from episodes where run_id = ?').get(run)).toEqual({ n: 2 })
      }
    } finally {
      raw.close()
    }
  }, 600_000)
})
