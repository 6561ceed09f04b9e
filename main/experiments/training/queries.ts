/**
 * Read side of training runs for the API: the list with key figures, one run's config, per-step
 * diagnostics and held-out before/after (aggregates with bootstrap CIs, and a paired comparison on the
 * evidence metrics), and the rollouts of one step. Reading never writes: a run still marked running
 * whose job has ended shows the job's final status, as runs.list does.
 */
import type SQLite from 'better-sqlite3'
import { sql } from 'kysely'
import type { z } from 'zod'
import {
  ApiError,
  TrainingRunConfig,
  WarmStartReportSchema,
  type TrainConfig,
  type TrainingRunDetail,
  type TrainingRunSummary,
  type TrainStepDiagnostics,
} from '../../../preload/contract'
import { workspaceQuery, type RowOf } from '../../db/query'
import { aggregate, comparePaired, pairedDifference, type QuestionResult } from '../../eval'
import { headlineMetric, rewardTerm, type GoldLevel } from '../../rl/reward-schemes'
import { TrainingStore } from './store'
import { episodeColumns } from '../../db/episode-columns'
import { runColumns, type RunSummaryJson } from '../runs/run-columns'
import type { GgufRates } from '../../../common'

/**
 * The held-out metrics compared before / after training at each gold level, paired by question; one
 * that no question measured (gold found by own queries outside free query) is left out of the table.
 */
const HELD_OUT_BY_LEVEL: Record<GoldLevel, readonly string[]> = {
  sentence: ['sp.f1', 'sp.recall', 'sp.precision', 'sp.allGold', 'evidence.count', 'sp.queryRecall'],
  paragraph: ['paragraph.f1', 'paragraph.recall', 'paragraph.precision', 'paragraph.allGold', 'evidence.count', 'paragraph.queryRecall'],
  answer: ['answer.f1.official', 'answer.em.official', 'evidence.count'],
}

/** The metric a run is judged by (its reward's leading term's), and the gold level that term needs. */
export function runHeadline(config: TrainConfig | null): { metric: string; level: GoldLevel } {
  const reward = config?.reward
  const metric = (reward && headlineMetric(reward)) ?? 'sp.f1'
  const lead = reward ? Object.entries(reward.weights).find(([name, w]) => w > 0 && rewardTerm(name).metric === metric)?.[0] : undefined
  return { metric, level: (lead ? rewardTerm(lead).needs : null) ?? 'sentence' }
}

/** The held-out metrics compared for a run: its headline first, then the others of its gold level. */
export function heldOutCompared(config: TrainConfig | null): string[] {
  const { metric, level } = runHeadline(config)
  return [metric, ...HELD_OUT_BY_LEVEL[level].filter((m) => m !== metric)]
}

type JobLookup = (jobId: string) => { status: string; error: string | null } | undefined
type PerQuestion = Record<string, Record<string, number | null>>

const trainRun = workspaceQuery((db, p: { id: number }) => db.selectFrom('runs').selectAll().where('id', '=', p.id).where('kind', '=', sql.lit('train')))
const trainRuns = workspaceQuery((db) => db.selectFrom('runs').selectAll().where('kind', '=', sql.lit('train')).orderBy('id', 'desc'))
const stepCount = workspaceQuery((db, p: { run: number }) => db.selectFrom('train_steps').select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('step').as('last')]).where('run_id', '=', p.run))
const stepReward = workspaceQuery((db, p: { run: number; step: number }) =>
  db.selectFrom('train_steps').select(sql<unknown>`json_extract(diagnostics_json, '$.reward')`.as('reward')).where('run_id', '=', p.run).where('step', '=', p.step),
)
const heldOutAtStart = workspaceQuery((db, p: { run: number; metric: string }) =>
  db
    .selectFrom('train_steps')
    .select(sql<unknown>`json_extract(diagnostics_json, '$.heldOut."' || ${p.metric} || '"')`.as('value'))
    .where('run_id', '=', p.run)
    .where('step', '=', sql.lit(0)),
)
const stepDiagnostics = workspaceQuery((db, p: { run: number }) => db.selectFrom('train_steps').select(['step', 'diagnostics_json']).where('run_id', '=', p.run).orderBy('step'))
const rolloutsPerStep = workspaceQuery((db, p: { run: number }) =>
  db
    .selectFrom('episodes')
    .select((eb) => [eb.ref('train_step').$notNull().as('step'), eb.fn.countAll<number>().as('n')])
    .where('run_id', '=', p.run)
    .where('train_step', 'is not', null)
    .groupBy('train_step'),
)
const rolloutCount = workspaceQuery((db, p: { run: number; step: number }) => db.selectFrom('episodes').select((eb) => eb.fn.countAll<number>().as('n')).where('run_id', '=', p.run).where('train_step', '=', p.step))
const rolloutPage = workspaceQuery((db, p: { run: number; step: number; limit: number; offset: number }) =>
  db
    .selectFrom('episodes')
    .select(['id', 'question_id', 'question', 'answer', 'turns', 'metrics_json'])
    .where('run_id', '=', p.run)
    .where('train_step', '=', p.step)
    .orderBy('id')
    .limit(p.limit)
    .offset(p.offset),
)

/** Stored rollouts of some steps with what a replay needs, and their question's type (credit quality). */
const replayableRollouts = workspaceQuery((db, p: { run: number; from: number; to: number }) =>
  db
    .selectFrom('episodes as e')
    .leftJoin('questions as q', 'q.id', 'e.question_id')
    .select(['e.id', 'e.question_id as questionId', 'e.question', 'e.seed', 'e.gold_json as goldJson', 'e.outcome_json as outcomeJson', 'e.metrics_json as metricsJson', 'e.steps_blob as steps', 'e.train_step as step', 'q.type as questionType'])
    .where('e.run_id', '=', p.run)
    .where('e.train_step', '>=', p.from)
    .where('e.train_step', '<=', p.to)
    .orderBy('e.id'),
)

type RunRow = RowOf<typeof trainRun>

type StoredSummary = z.infer<typeof RunSummaryJson>

const num = (v: unknown, fallback = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback)
const numOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null)
const numbers = (v: unknown): Record<string, number> =>
  Object.fromEntries(Object.entries(typeof v === 'object' && v !== null ? v : {}).filter(([, x]) => typeof x === 'number' && Number.isFinite(x)))

function statusOf(r: RunRow, jobOf: JobLookup): { status: string; error: string | null } {
  const job = r.status === 'running' && r.job_id ? jobOf(r.job_id) : undefined
  if (!job) return { status: r.status, error: r.error }
  return { status: job.status === 'done' ? 'failed' : job.status, error: job.error ?? `stopped (${job.status})` }
}

/** The run's TrainConfig and answerer (a row that does not parse reads as no config, lexical answerer). */
function storedConfig(r: RunRow): { stored: Pick<TrainingRunConfig, 'answerer' | 'answererName'>; config: TrainConfig | null } {
  const parsed = TrainingRunConfig.safeParse(JSON.parse(r.config_json))
  if (!parsed.success) return { stored: { answerer: { kind: 'lexical' } }, config: null }
  const { kind: _kind, answerer, answererName, ...config } = parsed.data
  return { stored: { answerer, answererName }, config }
}

const summaryOf = (r: RunRow): StoredSummary => runColumns.summary.readNullable(r.summary_json) ?? {}

function summarise(raw: SQLite.Database, r: RunRow, jobOf: JobLookup): TrainingRunSummary {
  const { stored, config } = storedConfig(r)
  const counts = stepCount(raw).get({ run: r.id })!
  const lastReward = counts.last === null ? null : numOrNull(stepReward(raw).value({ run: r.id, step: counts.last }))
  const headline = runHeadline(config)
  const before = numOrNull(heldOutAtStart(raw).value({ run: r.id, metric: headline.metric }))
  const { status, error } = statusOf(r, jobOf)
  const answererKind = stored.answerer.kind
  return {
    id: r.id,
    name: r.name,
    status,
    error,
    jobId: r.job_id,
    createdAt: r.created_at,
    finishedAt: r.finished_at,
    environment: config?.environment ?? '',
    credit: config?.credit.scheme ?? '',
    learner: config?.gguf ? 'gguf' : 'head',
    lastStep: counts.last,
    stepsDone: counts.n,
    steps: config?.steps ?? counts.n,
    lastReward,
    heldOutBefore: before,
    heldOutAfter: status === 'done' ? numOrNull(summaryOf(r).aggregates?.[headline.metric]?.mean) : null,
    headlineMetric: headline.metric,
    goldLevel: headline.level,
    answererName: stored.answererName ?? answererKind,
    lexicalAnswerer: answererKind === 'lexical',
  }
}

const runRow = (raw: SQLite.Database, runId: number): RunRow => {
  const r = trainRun(raw).get({ id: runId })
  if (!r) throw new ApiError('NOT_FOUND', `No training run #${runId}`)
  return r
}

export function listTrainingRuns(raw: SQLite.Database, jobOf: JobLookup = () => undefined): TrainingRunSummary[] {
  return trainRuns(raw).all().map((r) => summarise(raw, r, jobOf))
}

/** A stored warm-start report, or null (none, or one this version cannot read). */
const warmStartOf = (x: unknown): TrainStepDiagnostics['warmStart'] => {
  const parsed = WarmStartReportSchema.safeParse(x)
  return parsed.success ? parsed.data : null
}

function stepRows(raw: SQLite.Database, runId: number): { steps: TrainStepDiagnostics[]; perQuestion: Map<number, PerQuestion> } {
  const rows = stepDiagnostics(raw).all({ run: runId })
  const rollouts = new Map(rolloutsPerStep(raw).all({ run: runId }).map((x) => [x.step, x.n]))
  const perQuestion = new Map<number, PerQuestion>()
  const steps = rows.map(({ step, diagnostics_json }) => {
    const d = runColumns.diagnostics.read(diagnostics_json)
    if (d.heldOutPerQuestion) perQuestion.set(step, d.heldOutPerQuestion)
    const heldOut = d.heldOut && typeof d.heldOut === 'object' ? Object.fromEntries(Object.entries(d.heldOut).map(([k, v]) => [k, numOrNull(v)])) : null
    return {
      step,
      reward: num(d.reward),
      components: numbers(d.components),
      advantageMean: num(d.advantageMean),
      advantageStd: num(d.advantageStd),
      zeroAdvantageRate: num(d.zeroAdvantageRate),
      allCorrectRate: num(d.allCorrectRate),
      allWrongRate: num(d.allWrongRate),
      equivalenceClasses: num(d.equivalenceClasses),
      spanningGroups: num(d.spanningGroups),
      queryDiversity: numOrNull(d.queryDiversity),
      actionMix: numbers(d.actionMix),
      turns: num(d.turns),
      evidence: num(d.evidence),
      loss: num(d.loss),
      gradNorm: numOrNull(d.gradNorm),
      entropy: numOrNull(d.entropy),
      clippedFraction: num(d.clippedFraction),
      keptGroups: num(d.keptGroups),
      creditScale: num(d.creditScale),
      seconds: num(d.seconds),
      heldOutSeconds: numOrNull(d.heldOutSeconds),
      heldOut,
      rollouts: rollouts.get(step) ?? 0,
      klToBase: numOrNull(d.klToBase),
      klWarning: typeof d.klWarning === 'string' ? d.klWarning : null,
      tokensTrained: numOrNull(d.tokensTrained),
      secondsPerUpdate: numOrNull(d.secondsPerUpdate),
      learningRate: d.secondsPerUpdate === undefined ? null : numOrNull(d.learningRate),
      stepScale: numOrNull(d.stepScale),
      warmStart: warmStartOf(d.warmStart),
    }
  })
  return { steps, perQuestion }
}

const records = (perQuestion: PerQuestion): QuestionResult[] => Object.entries(perQuestion).map(([questionId, metrics]) => ({ questionId, variant: null, metrics }))

function side(at: string, perQuestion: PerQuestion, seed: number): NonNullable<TrainingRunDetail['heldOut']['before']> {
  const metrics = Object.fromEntries(
    Object.entries(aggregate(records(perQuestion), { seed })).map(([name, a]) => [name, { mean: a.mean, count: a.count, lower: a.ci?.lower ?? null, upper: a.ci?.upper ?? null }]),
  )
  return { at, questions: Object.keys(perQuestion).length, metrics }
}

/**
 * Before: the evaluation before the first update (step 0). After: the final evaluation of a finished
 * run, else the latest evaluation step of an unfinished one (labelled with its step).
 */
function heldOutOf(summary: StoredSummary, status: string, perQuestion: Map<number, PerQuestion>, seed: number, compared: readonly string[]): TrainingRunDetail['heldOut'] {
  const beforeRows = summary.heldOutBefore ?? perQuestion.get(0) ?? null
  let after: { at: string; rows: PerQuestion } | null = null
  if (status === 'done' && summary.heldOutAfter) after = { at: 'after training', rows: summary.heldOutAfter }
  else {
    const latest = Math.max(-1, ...[...perQuestion.keys()].filter((s) => s > 0))
    if (latest > 0) after = { at: `step ${latest} (latest evaluation; the run has not finished)`, rows: perQuestion.get(latest)! }
  }
  const comparison =
    beforeRows && after
      ? compared
          .map((metric) => ({ metric, c: comparePaired(records(beforeRows), records(after.rows), metric, { seed }) }))
          .filter(({ c }) => c.count > 0)
          .map(({ metric, c }) => ({
            metric, beforeMean: c.baselineMean, afterMean: c.candidateMean, ...pairedDifference(c),
          }))
      : []
  return { before: beforeRows ? side('before training', beforeRows, seed) : null, after: after ? side(after.at, after.rows, seed) : null, comparison }
}

export function trainingRun(raw: SQLite.Database, runId: number, jobOf: JobLookup = () => undefined): TrainingRunDetail {
  const r = runRow(raw, runId)
  const run = summarise(raw, r, jobOf)
  const { config } = storedConfig(r)
  if (!config) throw new ApiError('INTERNAL', `Training run #${runId} stores a config this version cannot read`)
  const { steps, perQuestion } = stepRows(raw, runId)
  const bytes = new TrainingStore(raw).bytesPerRollout(runId)
  return { run, config, steps, heldOut: heldOutOf(summaryOf(r), run.status, perQuestion, r.seed, heldOutCompared(config)), bytesPerRollout: num(bytes) }
}

/** The rollouts of one step, in the order they were played (question by question, G rollouts each). */
export function trainingRollouts(raw: SQLite.Database, runId: number, step: number, offset: number, limit: number) {
  runRow(raw, runId)
  const total = Number(rolloutCount(raw).value({ run: runId, step }))
  const rows = rolloutPage(raw).all({ run: runId, step, limit, offset })
  return {
    total,
    rollouts: rows.map((x) => {
      const metrics = episodeColumns.metrics.read(x.metrics_json)
      return { id: x.id, questionId: x.question_id, question: x.question, answer: x.answer, turns: x.turns, reward: numOrNull(metrics['train.reward']), metrics }
    }),
  }
}

/** A training run's config and the stored rollouts of steps from..to, in the order they were played (credit quality replays them). */
export function rolloutsForReplay(raw: SQLite.Database, runId: number, from: number, to: number) {
  const { config } = storedConfig(runRow(raw, runId))
  if (!config) throw new ApiError('INTERNAL', `Training run #${runId} stores a config this version cannot read`)
  return { config, rollouts: replayableRollouts(raw).all({ run: runId, from, to }) }
}

/**
 * A GGUF run's costs on this machine from the newest run of the same model, environment and context that
 * finished a step (a speed check or any run): rollout, update and held-out seconds as its steps measured
 * them. null when none has. The launcher sizes a run's shape from them (common/run-time.ts).
 */
export function latestGgufRates(raw: SQLite.Database, of: { modelPath: string; environment: string; contextSize: number }): { rates: GgufRates; runId: number; runName: string } | null {
  for (const r of [...trainRuns(raw).all()].sort((a, b) => b.id - a.id)) {
    const { config } = storedConfig(r)
    const gguf = config?.gguf
    if (!gguf || gguf.modelPath !== of.modelPath || config.environment !== of.environment || gguf.contextSize !== of.contextSize) continue
    const played = new Map(rolloutsPerStep(raw).all({ run: r.id }).map((x) => [x.step, x.n]))
    const steps = stepDiagnostics(raw).all({ run: r.id }).map(({ step, diagnostics_json }) => ({ d: runColumns.diagnostics.read(diagnostics_json), rollouts: played.get(step) ?? 0 }))
    const timed = steps.filter(({ d, rollouts }) => rollouts > 0 && num(d.rolloutsPerSecond) > 0 && numOrNull(d.secondsPerUpdate) !== null)
    if (!timed.length) continue
    const first = steps[0]?.d.heldOutPerQuestion
    const heldOutQuestions = first ? Object.keys(first).length : config.heldOut.limit
    const sum = (f: (s: (typeof timed)[number]) => number) => timed.reduce((total, s) => total + f(s), 0)
    const rolloutSeconds = ({ d, rollouts }: (typeof timed)[number]) => numOrNull(d.rolloutSeconds) ?? rollouts / num(d.rolloutsPerSecond)
    const rollouts = sum((s) => s.rollouts)
    const decisions = sum(({ d }) => num(d.decisionsTrained))
    const passes = timed.flatMap(({ d }) => (numOrNull(d.heldOutSeconds) === null ? [] : [num(d.heldOutSeconds)]))
    const overhead = sum((s) => Math.max(0, num(s.d.seconds) - rolloutSeconds(s) - num(s.d.secondsPerUpdate) - num(s.d.heldOutSeconds)))
    return {
      rates: {
        secondsPerRollout: sum(rolloutSeconds) / rollouts,
        decisionsPerRollout: decisions / rollouts,
        updateSecondsPerDecision: decisions > 0 ? sum(({ d }) => num(d.secondsPerUpdate)) / decisions : 0,
        heldOutSecondsPerQuestion: passes.length && heldOutQuestions > 0 ? passes.reduce((a, b) => a + b, 0) / passes.length / heldOutQuestions : sum(rolloutSeconds) / rollouts,
        stepOverheadSeconds: overhead / timed.length,
      },
      runId: r.id,
      runName: r.name,
    }
  }
  return null
}
