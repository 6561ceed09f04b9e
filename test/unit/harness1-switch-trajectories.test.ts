/**
 * Claim 4 compares policies trained with Harness-1's mechanisms on and off, so every switch must reach what a
 * policy does (issue 42): a fixed scripted policy (scripted-tools) plays the same questions with the full
 * harness and with each mechanism off, and for every switch some trajectory (its calls, their validity and the
 * curated evidence) differs. The harness is set so that each mechanism can act within an episode: the demo world
 * with a near-duplicate article (dedup), a curated set small enough to fill (importance tags decide evictions),
 * a context small enough to reach the budget warnings (markers): the limits claims 4-5 run at. The policy
 * heeds what each one shows.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { workspaceMigrations } from '../../main/db/migrations'
import { openDatabase, type OpenedDatabase } from '../../main/db/open'
import type { WorkspaceDatabase } from '../../main/db/schema'
import { runEpisode } from '../../main/harness'
import { MECHANISMS, STATEFUL_DEFAULTS, StatefulEnvironment, type StatefulConfig } from '../../main/harness/stateful'
import { environmentContext, type EnvContext, type EnvQuestion } from '../../main/harness/types'
import { defaultIngestOptions, runIngest, type IngestReporter } from '../../main/ingest/run'
import { CLAIM_LIMITS } from '../../main/experiments/findings/claims/harness-1'
import { ScriptedToolPolicy } from '../../main/policy/scripted'
import { envQuestions } from '../helpers/corpus'
import { tempDir } from '../helpers/services'

const quiet: IngestReporter = { progress: () => undefined, throwIfCancelled: () => undefined }
/** The limits claims 4-5 run Harness-1 at, where every mechanism can act within 16 turns (the published 30 documents and 8,192 tokens are never reached on the demo world). */
const EXERCISED: Partial<StatefulConfig> = CLAIM_LIMITS

describe('each Harness-1 switch changes what a fixed scripted policy does', () => {
  const tmp = tempDir('harness1-switches-')
  let db: OpenedDatabase<WorkspaceDatabase>
  let ctx: EnvContext
  let questions: EnvQuestion[]

  beforeAll(async () => {
    db = await openDatabase(join(tmp.dir, 'w.db'), workspaceMigrations)
    await runIngest(db.raw, { kind: 'demo', seed: 1, size: 1 }, defaultIngestOptions(), quiet)
    // A near-duplicate of one article, so dedup has something to suppress.
    const kannarance = db.raw.prepare("select text from documents where title = 'Kannarance'").pluck().get() as string
    mkdirSync(join(tmp.dir, 'extra'))
    writeFileSync(join(tmp.dir, 'extra', 'Kannarance copy.txt'), `${kannarance} It is also known for its markets.`)
    await runIngest(db.raw, { kind: 'folder', path: join(tmp.dir, 'extra') }, defaultIngestOptions(), quiet)
    ctx = environmentContext(db.raw)
    questions = envQuestions(db.raw).filter((q) => q.question.includes('Kannarance')).concat(envQuestions(db.raw).filter((q) => !q.question.includes('Kannarance')).slice(0, 12))
  }, 120_000)

  afterAll(async () => {
    await db.close()
    tmp.cleanup()
  })

  /** One trajectory as the claim's arms differ in it: each call, whether it was valid, and the curated evidence. */
  async function trajectories(delta: Partial<StatefulConfig>): Promise<string[]> {
    const env = new StatefulEnvironment(ctx, { ...STATEFUL_DEFAULTS, ...EXERCISED, ...delta })
    const out: string[] = []
    for (const q of questions) {
      const t = await runEpisode(env, new ScriptedToolPolicy(), q, 1, { snapshots: false })
      out.push(JSON.stringify({ calls: t.steps.map((s) => [s.action, s.info.valid]), evidence: t.outcome.evidence }))
    }
    return out
  }

  it('with the full harness as the reference, every mechanism switched off changes some trajectory', async () => {
    const full = await trajectories({})
    const unchanged: string[] = []
    for (const m of MECHANISMS) {
      const off = await trajectories({ [m]: false })
      const changed = off.filter((t, i) => t !== full[i]).length
      console.log(`${m} off: ${changed}/${questions.length} trajectories differ from the full harness`)
      if (changed === 0) unchanged.push(m)
    }
    expect(unchanged).toEqual([])
  }, 300_000)
})
