/**
 * A GGUF training run on the command line killed with SIGKILL (the CLI, its worker and the native
 * trainer together, as a power cut would) twice, at two different phases, and resumed with `train
 * --resume` each time, stores the same step figures, the same held-out results and the same final GGUF
 * (byte for byte) as the uninterrupted run with the same config. The kill points are progress lines,
 * not delays: the first kill lands while step 2 plays its rollouts or trains, the second during step 3.
 */
import { execFile, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSqlite } from '../../main/db/open'
import { STORIES_260K, storiesAvailable, storiesTitle } from '../helpers/gguf'
import { trainerUnavailableReason } from '../helpers/gguf-training'
import { tempDir } from '../helpers/services'
import { withoutWallTime } from '../../common/run-time'

const run = promisify(execFile)
const root = join(import.meta.dirname, '..', '..')
const tsx = join(root, 'node_modules', '.bin', 'tsx')
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')
// Timings differ between any two runs; everything else a step stores must not.

describe.skipIf(!storiesAvailable)(storiesTitle('GGUF run killed with SIGKILL and resumed (stories260K)'), () => {
  const tmp = tempDir('harness-lab-gguf-kill-')
  const env = { ...process.env, HARNESS_LAB_DATA_DIR: '' }
  const args = (...rest: string[]) => [join(root, 'main', 'cli.ts'), '--data-dir', tmp.dir, ...rest]
  const cli = async (...rest: string[]) => {
    const r = await run(tsx, args(...rest), { cwd: root, maxBuffer: 64 << 20, env })
    return r.stdout
  }
  let unavailable = ''
  let workspaceId = ''

  /** Runs `train` and SIGKILLs its whole process group as soon as stderr shows `line`. */
  const trainKilledAt = (line: string, ...rest: string[]) =>
    new Promise<string>((resolve, reject) => {
      const child = spawn(tsx, args('train', workspaceId, ...rest), { cwd: root, env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] })
      let err = ''
      let killed = false
      child.stderr.on('data', (chunk: Buffer) => {
        err += chunk.toString()
        if (!killed && err.includes(line)) {
          killed = true
          process.kill(-child.pid!, 'SIGKILL')
        }
      })
      child.on('error', reject)
      child.on('exit', (code, signal) => (killed && signal === 'SIGKILL' ? resolve(err) : reject(new Error(`train ended (${code ?? signal}) before "${line}":\n${err}`))))
    })

  beforeAll(async () => {
    unavailable = await trainerUnavailableReason()
    if (unavailable) return
    await cli('corpus', 'demo', 'kill', '--seed', '7', '--size', '0.6')
    workspaceId = (JSON.parse(await cli('--json', 'workspace', 'list')) as { id: string }[])[0]!.id
  }, 600_000)
  afterAll(() => tmp.cleanup())

  it('stores the same figures and final GGUF as the uninterrupted run', async (ctx) => {
    if (unavailable) return ctx.skip(`GGUF trainer unavailable: ${unavailable}`)
    const config = join(tmp.dir, 'train.json')
    writeFileSync(config, JSON.stringify({ steps: 3, groupSize: 2, questionsPerStep: 2, evalInterval: 2, seed: 5, gguf: { modelPath: STORIES_260K, contextSize: 512 } }))
    const flags = ['--env', 'graph-menu', '--split', '0:12', '--held-out', '12:3', '--credit', 'outcome', '--config', config]

    const whole = JSON.parse(await cli('--json', 'train', workspaceId, ...flags)) as { runId: number }
    const first = await trainKilledAt('Step 2/3', ...flags)
    expect(first).not.toMatch(/Step 3\/3/)
    // The demo is the data folder's only workspace: its database is the one workspace.db.
    const dbFile = readdirSync(tmp.dir, { recursive: true, encoding: 'utf8' }).find((f) => f.endsWith('workspace.db'))!
    const db = openSqlite(join(tmp.dir, dbFile), { readonly: true })
    try {
      const killedId = Number(db.prepare("select max(id) from runs where kind = 'train'").pluck().get())
      expect(killedId).not.toBe(whole.runId)
      await trainKilledAt('Step 3/3', '--resume', String(killedId))
      const resumed = JSON.parse(await cli('--json', 'train', workspaceId, '--resume', String(killedId))) as { runId: number; heldOut: unknown }
      expect(resumed.runId).toBe(killedId)

      const figures = (id: number) =>
        (db.prepare('select step, diagnostics_json from train_steps where run_id = ? order by step').all(id) as { step: number; diagnostics_json: string }[]).map(({ step, diagnostics_json }) => ({
          step,
          ...withoutWallTime(JSON.parse(diagnostics_json) as Record<string, unknown>),
        }))
      expect(figures(killedId).map((f) => f.step)).toEqual([0, 1, 2])
      expect(figures(killedId)).toEqual(figures(whole.runId))
      const summary = (id: number) => JSON.parse(db.prepare('select summary_json from runs where id = ?').pluck().get(id) as string) as { heldOutAfter: unknown; heldOutBefore: unknown; ggufModel: { path: string; sha256: string } }
      const [a, b] = [summary(whole.runId), summary(killedId)]
      expect(b.heldOutBefore).toEqual(a.heldOutBefore)
      expect(b.heldOutAfter).toEqual(a.heldOutAfter)
      expect(sha(b.ggufModel.path)).toBe(b.ggufModel.sha256)
      expect(b.ggufModel.sha256).toBe(a.ggufModel.sha256)
      expect(db.prepare('select status from runs where id = ?').pluck().get(killedId)).toBe('done')
    } finally {
      db.close()
    }
  }, 1_800_000)
})
