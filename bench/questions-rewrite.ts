/**
 * Generated questions rewritten through a GGUF model: speed and acceptance.
 *   npm run bench:questions-rewrite [-- --runs N --max N --tokens N --model PATH]
 * Ingests the demo world (seed 1, size 1, as "Create demo workspace" does) into a temporary workspace,
 * then generates bridge and comparison questions (at most --max per kind, default 50) and rewrites every
 * kept one through the model (default ../shared/models/stories260K.gguf), --tokens per rewrite (default
 * 48). Prints the median of N runs (default 3) of: template generation alone (the peer, measured in the
 * same run), generation + rewrite, rewrites per second, and the acceptance rate with the rejections by
 * reason and a few outputs. stories260K is a tiny story model, not an instruction model: it writes
 * story text, so its acceptance rate is the checks' floor, not what an instruct model would reach.
 */
import { join } from 'node:path'
import { workspaceMigrations } from '../main/db/migrations'
import { openDatabase } from '../main/db/open'
import { defaultIngestOptions, runIngest } from '../main/ingest/run'
import { LlamaRuntime } from '../main/llm/llama-runtime'
import { generateCandidates, generateQuestionSet, openQuestionRewriter, selectGenerated } from '../main/questions'
import { STORIES_260K, storiesAvailable } from './support/gguf'
import { tempDir } from './support/services'

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : undefined
}
const num = (name: string, fallback: number): number => {
  const v = Number(arg(name))
  return Number.isFinite(v) && v > 0 ? v : fallback
}
const RUNS = num('runs', 3)
const MAX = num('max', 50)
const TOKENS = num('tokens', 48)
const MODEL = arg('model') ?? STORIES_260K
const quiet = { progress: () => undefined, throwIfCancelled: () => undefined }
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

async function main(): Promise<void> {
  if (MODEL === STORIES_260K && !storiesAvailable) {
    console.log(`skipped: ${STORIES_260K} is absent (the project's ../shared models folder)`)
    return
  }
  const tmp = tempDir('harness-lab-bench-rewrite-')
  const db = await openDatabase(join(tmp.dir, 'workspace.db'), workspaceMigrations)
  const runtime = await LlamaRuntime.create({ gpu: 'auto' })
  try {
    await runIngest(db.raw, { kind: 'demo', seed: 1, size: 1 }, defaultIngestOptions(), quiet)
    const base = { seed: 1, kinds: ['bridge', 'comparison'] as ('bridge' | 'comparison')[], maxPerKind: MAX, answerNotInQuestion: true }
    const templateS: number[] = []
    const totalS: number[] = []
    const rewriteQps: number[] = []
    let last: Awaited<ReturnType<typeof generateQuestionSet>> | null = null
    for (let run = 0; run < RUNS; run++) {
      const t0 = performance.now()
      const kept = selectGenerated(generateCandidates(db.raw, base), base).kept
      templateS.push((performance.now() - t0) / 1000)
      const r = await generateQuestionSet(db.raw, { ...base, name: `rewritten-${run}`, rewrite: { modelPath: MODEL, maxQuestions: kept.length, maxTokens: TOKENS } }, quiet, (path) => openQuestionRewriter(path, runtime))
      totalS.push(r.seconds)
      rewriteQps.push(r.rewrite!.questionsPerSecond)
      last = r
    }
    const rw = last!.rewrite!
    const n = Object.values(last!.kept).reduce((a, b) => a + b, 0)
    const rejected = Object.values(rw.rejected).reduce((a, b) => a + b, 0)
    const info = await runtime.info()
    console.log(`demo world (seed 1, size 1), ${n} kept questions (${Object.entries(last!.kept).map(([k, v]) => `${v} ${k}`).join(', ')}), model ${rw.model} (prompt: ${rw.promptTemplate}), ${info.backend}, ${info.threads} threads, median of ${RUNS} runs`)
    console.log(`  template generation alone   ${median(templateS).toFixed(3)} s  (${(n / median(templateS)).toFixed(0)} questions/s)`)
    console.log(`  generation + rewrite        ${median(totalS).toFixed(3)} s  (${(n / median(totalS)).toFixed(1)} questions/s; ${(median(totalS) / median(templateS)).toFixed(0)}x the template-only time)`)
    console.log(`  rewrite alone               ${median(rewriteQps).toFixed(1)} questions/s, at most ${TOKENS} tokens each`)
    console.log(`  accepted ${rw.accepted} of ${rw.accepted + rejected} (${((100 * rw.accepted) / Math.max(1, rw.accepted + rejected)).toFixed(1)}%); rejected by reason: ${Object.entries(rw.rejected).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`)
    const rows = db.raw.prepare("select meta_json from questions where set_id = ? order by id limit 3").pluck().all(last!.setId) as string[]
    for (const row of rows) {
      const rec = (JSON.parse(row) as { rewrite: { template: string; output?: string; status: string; reason?: string } }).rewrite
      console.log(`  e.g. ${rec.status}${rec.reason ? ` (${rec.reason})` : ''}: ${JSON.stringify(rec.output ?? '')}\n       template: ${rec.template}`)
    }
  } finally {
    await runtime.dispose()
    await db.close()
    tmp.cleanup()
  }
}

await main()
