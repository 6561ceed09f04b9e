/**
 * Section 5 of bench:ingest-hostile: question import of ROWS rows per format, the route's way (staged,
 * then a questions.import job reads, resolves and writes it in a worker thread) against
 * importQuestionSetAsync on the calling thread (the reader without the worker, pausing every 20 ms).
 * Each way and format runs in its own process (bench/question-import-child.ts), so its peak RSS is its
 * own (the process's maxRSS, worker threads included) and not what an earlier case left behind.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import type { RouteOutput } from '../preload/contract'
import { dispatch } from '../main/api/dispatch'
import { createHandlers } from '../main/api/handlers'
import { createServices } from '../main/app/services'
import { workspaceMigrations } from '../main/db/migrations'
import { openDatabase } from '../main/db/open'
import { importQuestionSetAsync } from '../main/questions'
import { sourceWorker } from './support/services'

export type QuestionFormat = 'json' | 'wrapped' | 'jsonl' | 'csv'
export type ImportWay = 'worker' | 'thread'

export function questionFile(format: QuestionFormat, rows: number): string {
  const row = (i: number) => ({ id: `q${i}`, question: `Which river flows through the town of Example ${i}?`, answer: [`River ${i}`, `the River ${i}`], supporting_facts: [[`Example ${i}`, 0], [`River ${i}`, 1]] })
  if (format === 'csv') {
    const lines = ['id,question,answer']
    for (let i = 0; i < rows; i++) lines.push(`q${i},"Which river flows through ""Example ${i}"", the town?",River ${i}`)
    return `${lines.join('\n')}\n`
  }
  const items: string[] = []
  for (let i = 0; i < rows; i++) items.push(JSON.stringify(row(i), null, format === 'jsonl' ? undefined : 2))
  if (format === 'jsonl') return `${items.join('\n')}\n`
  const array = `[\n${items.join(',\n')}\n]`
  return format === 'json' ? array : `{"version": 1, "data": ${array}}`
}

/** What one child reports: per run, and the process's memory. */
export interface ChildFigures {
  bytes: number
  rows: number
  imported: number
  wall: number[]
  /** The job's own milliseconds in its thread (worker only). */
  inThread: number[]
  /** Longest gap between 1 ms ticks of the calling thread during each run. */
  held: number[]
  /** The same while nothing runs: this machine's floor for `held`. */
  idleHeld: number
  rssBefore: number
  maxRss: number
}

/** Longest gap between 1 ms ticks of this thread while `run` runs. */
async function heldDuring<T>(run: () => Promise<T>): Promise<{ out: T; held: number }> {
  let held = 0
  let last = performance.now()
  const ticker = setInterval(() => {
    const now = performance.now()
    held = Math.max(held, now - last)
    last = now
  }, 1)
  try {
    return { out: await run(), held }
  } finally {
    clearInterval(ticker)
  }
}

/** Runs in the child: `runs` imports of one format one way, in `dir`. */
export async function measureInChild(format: QuestionFormat, way: ImportWay, rows: number, runs: number, dir: string): Promise<ChildFigures> {
  const text = questionFile(format, rows)
  const fileName = `questions.${format === 'wrapped' ? 'json' : format}`
  const idle = await heldDuring(() => new Promise((resolve) => setTimeout(resolve, 500)))
  const figures: ChildFigures = { bytes: Buffer.byteLength(text), rows: 0, imported: 0, wall: [], inThread: [], held: [], idleHeld: idle.held, rssBefore: 0, maxRss: 0 }
  const record = (t: number, held: number, report: { rows: number; imported: number }): void => {
    figures.wall.push(performance.now() - t)
    figures.held.push(held)
    figures.rows = report.rows
    figures.imported = report.imported
  }
  if (way === 'worker') {
    const services = await createServices({ dataDir: join(dir, 'data'), worker: sourceWorker, jobConcurrency: 1 })
    try {
      const handlers = createHandlers(services, { mode: 'cli' })
      const workspaceId = (await services.workspaces.create('bench-questions')).id
      figures.rssBefore = process.memoryUsage().rss
      for (let r = 0; r < runs; r++) {
        const t = performance.now()
        const { out: env, held } = await heldDuring(() => dispatch(handlers, 'questions.import', { workspaceId, name: `${format}-${r}`, content: text, fileName }))
        if (!env.ok) throw new Error(env.error.message)
        record(t, held, (env.data as RouteOutput<'questions.import'>).report)
        const job = (await services.jobs.list({ workspaceId, limit: 1 }))[0]
        if (job?.kind === 'questions.import' && job.result) figures.inThread.push(job.result.seconds * 1000)
      }
    } finally {
      await services.close()
    }
  } else {
    const db = await openDatabase(join(dir, 'workspace.db'), workspaceMigrations)
    try {
      figures.rssBefore = process.memoryUsage().rss
      for (let r = 0; r < runs; r++) {
        const t = performance.now()
        const { out, held } = await heldDuring(() => importQuestionSetAsync(db.raw, { name: `${format}-${r}`, text, fileName }))
        record(t, held, out.report)
      }
    } finally {
      await db.close()
    }
  }
  figures.maxRss = process.resourceUsage().maxRSS * 1024
  return figures
}

function runChild(format: QuestionFormat, way: ImportWay, rows: number, runs: number, dir: string): Promise<ChildFigures> {
  const child = spawn(process.execPath, [...process.execArgv, join(import.meta.dirname, 'question-import-child.ts'), format, way, String(rows), String(runs), dir], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? ''
      if (code === 0 && last.startsWith('{')) resolve(JSON.parse(last) as ChildFigures)
      else reject(new Error(`question import child (${format}, ${way}) exited with ${code}: ${out.slice(-500)}`))
    })
  })
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const mb = (bytes: number): string => `${(bytes / (1024 * 1024)).toFixed(0)} MiB`
const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`

export async function questionImportFigures(tmp: string, rows: number, runs: number): Promise<void> {
  console.log(`\n5. Question import, ${rows.toLocaleString('en-US')} rows of each format, median of ${runs} run${runs === 1 ? '' : 's'} (each way and format in its own process)`)
  console.log('   worker: the questions.import route (a job in a worker thread); thread: importQuestionSetAsync on the calling thread')
  const walls: Record<string, Record<ImportWay, number>> = {}
  for (const format of ['jsonl', 'json', 'wrapped', 'csv'] as const) {
    const f: Partial<Record<ImportWay, ChildFigures>> = {}
    for (const way of ['worker', 'thread'] as const) f[way] = await runChild(format, way, rows, runs, join(tmp, `questions-${format}-${way}`))
    const { worker, thread } = f as Record<ImportWay, ChildFigures>
    walls[format] = { worker: median(worker.wall), thread: median(thread.wall) }
    console.log(`   ${format.padEnd(8)} ${mb(worker.bytes).padStart(7)}, ${worker.imported.toLocaleString('en-US')} of ${worker.rows.toLocaleString('en-US')} rows imported`)
    for (const [label, c] of [['worker', worker], ['thread', thread]] as const) {
      console.log(
        `     ${label.padEnd(7)} ${s(median(c.wall))}${c.inThread.length > 0 ? ` (${s(median(c.inThread))} in the job's thread; the rest is staging and the thread's start)` : ''}, ` +
          `peak RSS ${mb(c.maxRss)} (+${mb(Math.max(0, c.maxRss - c.rssBefore))} over the RSS before the imports), calling thread held at most ${median(c.held).toFixed(0)} ms (idle floor ${c.idleHeld.toFixed(0)} ms)`,
      )
    }
    console.log(`     ratio worker / thread: wall ${(median(worker.wall) / median(thread.wall)).toFixed(2)}x, peak RSS ${(worker.maxRss / thread.maxRss).toFixed(2)}x, calling thread held ${(median(worker.held) / median(thread.held)).toFixed(2)}x`)
  }
  for (const way of ['worker', 'thread'] as const) {
    const ratio = (format: string): string => (walls[format]![way] / walls.jsonl![way]).toFixed(2)
    console.log(`   ratio to JSONL (${way}): json ${ratio('json')}x, {data: [...]} ${ratio('wrapped')}x, csv ${ratio('csv')}x`)
  }
}
