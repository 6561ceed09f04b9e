/**
 * Harness-1 bench: environment step time and rendered-context tokens per turn, with the scripted tool
 * policy, on HotpotQA train-100 (read in place from ../shared/data; skipped when absent) and on a
 * demo world of size 10. The peer is the append-only transcript baseline over the same tools and
 * questions: the ratio of its tokens per turn to the stateful harness's is the headline.
 * Run: npx tsx bench/harness1.ts   (MAX_QUESTIONS=n caps questions per corpus; default 200)
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { questionSets, questionsOf } from '../main/corpus/catalogue'
import { workspaceMigrations } from '../main/db/migrations'
import { openDatabase } from '../main/db/open'
import { runEpisode, environmentContext } from '../main/harness'
import { ScriptedToolPolicy } from '../main/policy/scripted'
import { STATEFUL_DEFAULTS, StatefulEnvironment, TRANSCRIPT_DEFAULTS, type StatefulSnapshot } from '../main/harness/stateful'
import type { EnvContext, EnvQuestion } from '../main/harness/types'
import { defaultIngestOptions, runIngest } from '../main/ingest/run'
import type { IngestSource } from '../main/ingest/sources'
import { goldEvidence, type GoldEvidence } from '../main/corpus/gold'
import { scoreHarness1Episode } from '../main/rl/rewards'
import { tempDir } from './support/services'
import { sharedPath } from './support/shared-data'

const HOTPOT = process.env.HOTPOTQA_DIR ?? sharedPath('data/hotpotqa-train100')
const MAX_QUESTIONS = Number(process.env.MAX_QUESTIONS ?? 200)

const quantile = (xs: number[], q: number): number => {
  if (xs.length === 0) return Number.NaN
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!
}
const median = (xs: number[]) => quantile(xs, 0.5)
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)

interface Figures {
  stepMs: number[]
  tokens: number[]
  turns: number[]
  recall: number[]
  reward: number[]
  endReasons: Record<string, number>
}

async function measure(ctx: EnvContext, gold: GoldEvidence, config: Record<string, unknown>, questions: EnvQuestion[]): Promise<Figures> {
  const env = new StatefulEnvironment(ctx, config)
  const policy = new ScriptedToolPolicy()
  const f: Figures = { stepMs: [], tokens: [], turns: [], recall: [], reward: [], endReasons: {} }
  for (const q of questions) {
    const run = await runEpisode(env, policy, q, 1)
    f.stepMs.push(...run.steps.map((s) => s.info.ms))
    f.tokens.push(...run.steps.map((s) => (s.snapshot as StatefulSnapshot).budget.used))
    const outcome = env.outcome()
    const score = scoreHarness1Episode(gold, q, outcome, outcome.toolsUsed)
    f.turns.push(outcome.turns)
    f.recall.push(score.curatedRecall ?? 0)
    f.reward.push(score.total)
    f.endReasons[outcome.endReason] = (f.endReasons[outcome.endReason] ?? 0) + 1
  }
  return f
}

function line(label: string, f: Figures): string {
  return (
    `${label.padEnd(11)} step ms median ${median(f.stepMs).toFixed(2).padStart(6)} (p90 ${quantile(f.stepMs, 0.9).toFixed(2).padStart(6)})  ` +
    `tokens/turn median ${String(median(f.tokens)).padStart(6)} (p90 ${String(quantile(f.tokens, 0.9)).padStart(6)})  ` +
    `turns ${mean(f.turns).toFixed(2)}  curated recall ${mean(f.recall).toFixed(3)}  reward ${mean(f.reward).toFixed(3)}  ` +
    `ends ${JSON.stringify(f.endReasons)}`
  )
}

async function bench(label: string, source: IngestSource): Promise<void> {
  const tmp = tempDir('harness1-bench-')
  const db = await openDatabase(join(tmp.dir, 'w.db'), workspaceMigrations)
  try {
    const t = performance.now()
    const summary = await runIngest(db.raw, source, defaultIngestOptions(), { progress: () => undefined, throwIfCancelled: () => undefined })
    const set = questionSets(db.raw)[0]
    if (!set) throw new Error(`${label}: ingest produced no question set`)
    const questions = questionsOf(db.raw, set.id, 0, MAX_QUESTIONS).questions.map((q) => ({
      id: String(q.id),
      question: q.question,
      answers: q.answers,
      supportingFacts: q.supportingFacts,
      supportingDocs: q.supportingDocs,
    }))
    console.log(
      `\n${label}: ${summary.documents} documents, ${summary.chunks} chunks, ${questions.length} of ${set.questions} questions ` +
        `(ingest ${((performance.now() - t) / 1000).toFixed(1)} s); context limit ${STATEFUL_DEFAULTS.contextTokens} cl100k tokens`,
    )
    const ctx = environmentContext(db.raw)
    const stateful = await measure(ctx, goldEvidence(db.raw), { ...STATEFUL_DEFAULTS }, questions)
    console.log(line('stateful', stateful))
    const transcript = await measure(ctx, goldEvidence(db.raw), { ...TRANSCRIPT_DEFAULTS }, questions)
    console.log(line('transcript', transcript))
    console.log(
      `peer ratio  transcript / stateful tokens per turn (medians): ${(median(transcript.tokens) / median(stateful.tokens)).toFixed(2)}x; ` +
        `step time: ${(median(transcript.stepMs) / median(stateful.stepMs)).toFixed(2)}x`,
    )
  } finally {
    await db.close()
    tmp.cleanup()
  }
}

console.log('Harness-1 bench: scripted tool policy, medians over every step of every episode')
if (existsSync(join(HOTPOT, 'hotpotqa_train.json'))) {
  await bench('HotpotQA train-100', {
    kind: 'benchmark',
    benchmark: 'hotpotqa',
    questionsFile: join(HOTPOT, 'hotpotqa_train.json'),
    corpusFile: join(HOTPOT, 'hotpotqa_train_corpus.json'),
  })
} else console.log(`\n(skipping HotpotQA: ${HOTPOT} is absent)`)
await bench('demo world x10', { kind: 'demo', seed: 1, size: 10 })
