/**
 * The two suites of the RL benchmarks: the demo world (held-out = the last min(128, n/4) questions by id)
 * and HotpotQA-train100 from ../shared/data/hotpotqa-train100 (ingested in a temporary workspace; the
 * first half by id trains, the last half is held out), each as a database and its train / held-out ranges.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type SQLite from 'better-sqlite3'
import { questionSets } from '../../main/corpus/catalogue'
import { workspaceMigrations } from '../../main/db/migrations'
import { openDatabase } from '../../main/db/open'
import { defaultIngestOptions, runIngest } from '../../main/ingest/run'
import type { QuestionRange } from '../../preload/contract'
import { openDemoWorkspace } from './corpus'
import { tempDir } from './services'
import { sharedPath } from './shared-data'

export interface RlSuite {
  /** '' for the demo world, 'hotpotqa/' for HotpotQA-train100 (the prefix of machine-readable lines). */
  prefix: string
  name: 'demo' | 'hotpotqa'
  label: string
  raw: SQLite.Database
  setId: number
  train: QuestionRange
  heldOut: QuestionRange
  close(): Promise<void>
}

export const HOTPOT_DIR = process.env.HOTPOTQA_DIR ?? sharedPath('data/hotpotqa-train100')

const ranges = (setId: number, total: number, heldOut: number) => ({
  setId,
  train: { questionSetId: setId, offset: 0, limit: total - heldOut },
  heldOut: { questionSetId: setId, offset: total - heldOut, limit: heldOut },
})

/** The demo world of seed 11 at `size` (6: over 500 questions). */
export async function demoSuite(size: number): Promise<RlSuite> {
  const demo = await openDemoWorkspace(11, size)
  const n = Number(demo.db.raw.prepare('select count(*) from questions').pluck().get())
  return { prefix: '', name: 'demo', label: `demo world size ${size}`, raw: demo.db.raw, ...ranges(1, n, Math.min(128, Math.floor(n / 4))), close: () => demo.close() }
}

/** HotpotQA-train100, or null (with a message) when ../shared does not hold it. `heldOut` defaults to half the questions. */
export async function hotpotSuite(heldOut: number | null = null, log: (line: string) => void = console.log): Promise<RlSuite | null> {
  const questionsFile = join(HOTPOT_DIR, 'hotpotqa_train.json')
  const corpusFile = join(HOTPOT_DIR, 'hotpotqa_train_corpus.json')
  if (!existsSync(questionsFile) || !existsSync(corpusFile)) {
    log(`\nSkipping the HotpotQA-train100 suite: ${HOTPOT_DIR} does not hold hotpotqa_train.json and hotpotqa_train_corpus.json.`)
    return null
  }
  const tmp = tempDir('harness-rl-bench-')
  const db = await openDatabase(join(tmp.dir, 'workspace.db'), workspaceMigrations)
  const close = async () => {
    await db.close()
    tmp.cleanup()
  }
  try {
    const t0 = performance.now()
    const summary = await runIngest(db.raw, { kind: 'benchmark', benchmark: 'hotpotqa', questionsFile, corpusFile }, defaultIngestOptions(), { progress: () => undefined, throwIfCancelled: () => undefined })
    log(`\nHotpotQA-train100: ${summary.documents} documents, ${summary.chunks} chunks, ${summary.questions} questions; ingest ${((performance.now() - t0) / 1000).toFixed(1)} s`)
    const set = questionSets(db.raw)[0]
    if (!set) throw new Error('HotpotQA-train100: the ingest produced no question set')
    const n = Number(db.raw.prepare('select count(*) from questions where set_id = ?').pluck().get(set.id))
    // Half, not a quarter: 25 held-out questions gave paired CIs about ±0.07 wide on SP F1, wider than
    // the gains measured (menu + SNC +0.050 [-0.022, 0.124] at 75/25, +0.058 [0.010, 0.110] at 50/50).
    return { prefix: 'hotpotqa/', name: 'hotpotqa', label: 'HotpotQA-train100', raw: db.raw, ...ranges(set.id, n, heldOut ?? Math.round(n / 2)), close }
  } catch (err) {
    await close()
    throw err
  }
}

/** Runs `fn` on each named suite ('demo', 'hotpotqa'), closing each after, then prints the collected machine-readable lines. */
export async function eachSuite(names: readonly string[], fn: (suite: RlSuite, lines: string[]) => Promise<void>, demoSize = 6): Promise<void> {
  const lines: string[] = []
  for (const name of names) {
    const s = name === 'demo' ? await demoSuite(demoSize) : name === 'hotpotqa' ? await hotpotSuite() : null
    if (!s) continue
    try {
      await fn(s, lines)
    } finally {
      await s.close()
    }
  }
  console.log('')
  for (const l of lines) console.log(l)
}
