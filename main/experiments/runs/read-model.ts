import { z } from 'zod'
import {
  ApiError,
  CORRECT_METRICS,
  CORRECT_THRESHOLD,
  RunConfig,
  type ComparableEpisode,
  type EpisodeFilter,
  type EpisodeGold,
  type EpisodeRow,
  type EpisodeStepCredit,
  type PathNode,
  type RunSummary,
  type StepView,
} from '../../../preload/contract'
import { resolveGold } from '../../corpus/gold'
import { corpusRepositories, type WorkspaceHandle } from '../../corpus/repository'
import type { SupportingFact } from '../../corpus/types'
import { environmentFactory, environmentNames, type Action, type ActionSpace, type EpisodeOutcome, type StepInfo, type TrajectoryStep } from '../../harness'
import { runStore, type ComparableRecord, type EpisodeRecord, type EpisodeWhere } from './store'
import { episodeColumns, stepColumns } from '../../db/episode-columns'
import { runColumns } from './run-columns'
import { replayRollout } from './replay'

type JobLookup = (jobId: string) => { status: string; error: string | null } | undefined

/**
 * Read side of runs and episodes for the API and the UI. A run still marked running whose job has ended
 * (its worker was stopped, or the app crashed mid-run) is shown with the job's final status: reading
 * never writes, so it never waits on a worker holding the database.
 */
export function listRuns(raw: WorkspaceHandle, jobOf: JobLookup = () => undefined): RunSummary[] {
  return runStore(raw).runsWithEpisodeCounts().map((row) => {
    const r: Omit<typeof row, 'status'> & { status: string } = row
    const job = r.status === 'running' && r.job_id ? jobOf(r.job_id) : undefined
    const ended = job && job.status !== 'queued' && job.status !== 'running'
    if (ended) {
      r.status = job.status === 'done' ? 'failed' : job.status
      r.error = job.error ?? `stopped (${job.status})`
    }
    const summary = runColumns.summary.readNullable(r.summary_json)
    const metrics: RunSummary['metrics'] = {}
    for (const [name, a] of Object.entries(summary?.aggregates ?? {})) {
      metrics[name] = { mean: a.mean, count: a.count ?? 0, lower: a.ci?.lower ?? null, upper: a.ci?.upper ?? null }
    }
    return {
      id: r.id,
      kind: r.kind,
      name: r.name,
      status: r.status,
      seed: r.seed,
      createdAt: r.created_at,
      finishedAt: r.finished_at,
      error: r.error,
      config: storedRunConfig(r.config_json),
      episodes: r.episodes,
      metrics,
      wallClockGuards: summary?.wallClockGuards ?? null,
    }
  })
}

/** The run record, typed by kind; a row no kind parses (hand-edited, or from a newer app) lists without one. */
function storedRunConfig(json: string): RunConfig | null {
  const parsed = RunConfig.safeParse(JSON.parse(json))
  return parsed.success ? parsed.data : null
}

/** An episode row as the runs pages and the run exports read it. */
export const toEpisode = (r: EpisodeRecord): EpisodeRow => ({
  id: r.id,
  runId: r.run_id,
  questionId: r.question_id,
  question: r.question,
  answer: r.answer,
  gold: episodeColumns.gold.read(r.gold_json).answers,
  turns: r.turns,
  formatErrors: r.format_errors,
  ms: r.ms,
  endReason: episodeColumns.outcome.read(r.outcome_json).endReason,
  trainStep: r.train_step,
  metrics: episodeColumns.metrics.read(r.metrics_json),
})

/** The reward a run's episodes carry: the training reward of rollouts, Harness-1's reward of evaluations, or none. */
function rewardMetricOf(runs: ReturnType<typeof runStore>, run: { id: number; kind: string }): string | null {
  if (run.kind === 'train') return 'train.reward'
  const any = runs.anyEpisodeMetrics(run.id)
  return any && 'reward.total' in episodeColumns.metrics.read(any) ? 'reward.total' : null
}

/**
 * A page of a run's episodes, filtered in SQL (see EpisodeFilter): question text, correct / wrong by
 * answer F1 (official) or SP F1 at 0.5, the run's reward in a range, format errors, end reason,
 * training step. Also what the filters read (reward and correctness metrics) and the run's end reasons
 * and training steps, so a page can offer them.
 */
export function listEpisodes(raw: WorkspaceHandle, runId: number, offset: number, limit: number, filter?: EpisodeFilter) {
  const runs = runStore(raw)
  const run = runs.run(runId)
  if (!run) throw new ApiError('NOT_FOUND', `No run with id ${runId}`)
  const rewardMetric = rewardMetricOf(runs, run)
  const correctMetric = CORRECT_METRICS[filter?.correctBy ?? 'answer']
  const where: EpisodeWhere = {}
  const metrics: NonNullable<EpisodeWhere['metrics']> = []
  if (filter) {
    if (filter.question) where.questionContains = filter.question
    if (filter.correct === 'correct') metrics.push({ name: correctMetric, min: CORRECT_THRESHOLD })
    if (filter.correct === 'wrong') metrics.push({ name: correctMetric, below: CORRECT_THRESHOLD })
    if (filter.rewardMin !== undefined || filter.rewardMax !== undefined) {
      if (!rewardMetric) throw new ApiError('VALIDATION', `Run #${runId} stores no reward (neither train.reward nor reward.total): filter it by other fields`, ['filter.rewardMin: this run has no reward'])
      if (filter.rewardMin !== undefined && filter.rewardMax !== undefined && filter.rewardMin > filter.rewardMax) {
        throw new ApiError('VALIDATION', `The reward range is empty: its minimum ${filter.rewardMin} is above its maximum ${filter.rewardMax}`, ['filter.rewardMin: above filter.rewardMax'])
      }
      metrics.push({ name: rewardMetric, min: filter.rewardMin, max: filter.rewardMax })
    }
    if (filter.formatErrors) where.formatErrors = filter.formatErrors
    if (filter.endReason !== undefined) where.endReason = filter.endReason
    if (filter.trainStep !== undefined) where.trainStep = filter.trainStep
  }
  if (metrics.length) where.metrics = metrics
  return {
    total: runs.filteredCount(runId, where),
    runTotal: runs.episodeCount(runId),
    episodes: runs.filteredPage(runId, where, offset, limit).map(toEpisode),
    runKind: run.kind,
    rewardMetric,
    correctMetric,
    correctThreshold: CORRECT_THRESHOLD,
    endReasons: runs.endReasons(runId),
    trainSteps: run.kind === 'train' ? runs.trainStepRange(runId) : null,
  }
}

const toComparable = (r: ComparableRecord): ComparableEpisode => ({
  id: r.id,
  runId: r.run_id,
  runName: r.run_name,
  runKind: r.run_kind,
  trainStep: r.train_step,
  seed: r.seed,
  answer: r.answer,
  turns: r.turns,
  endReason: r.end_reason ?? '',
  metrics: episodeColumns.metrics.read(r.metrics_json),
})

/**
 * What an episode can be compared with: the evaluation episodes of other runs on the same question
 * (ablation rows), and for a training rollout the other rollouts of its step on its question (its
 * group). Null when there is no such episode.
 */
export function listComparable(raw: WorkspaceHandle, episodeId: number, limit: number): { sameQuestion: ComparableEpisode[]; group: ComparableEpisode[] } | null {
  const runs = runStore(raw)
  const r = runs.episodeWithRun(episodeId)
  if (!r) return null
  const sameQuestion = r.question_id !== null ? runs.sameQuestion(r.question_id, r.run_id, limit).map(toComparable) : []
  const group = r.train_step !== null && r.question_id !== null ? runs.group(r.run_id, r.train_step, r.question_id, r.id, limit).map(toComparable) : []
  return { sameQuestion, group }
}

/** What replay hands a training rollout's step (main/experiments/runs/replay.ts). */
const StoredTrainer = z.object({
  index: z.number().nullable().optional(),
  candidates: z.number().nullable().optional(),
  credit: z.object({ total: z.number(), frontier: z.number(), enablement: z.number(), gain: z.number() }),
  advantage: z.number(),
})

function creditOf(decision: TrajectoryStep['decision']): EpisodeStepCredit | null {
  const parsed = StoredTrainer.safeParse(decision.trainer)
  if (!parsed.success) return null
  const { credit, advantage, index, candidates } = parsed.data
  return { ...credit, advantage, index: index ?? null, candidates: candidates ?? null }
}

/** Menu item targets the path reads: a LOOKUP's entity (Harness-G). Other targets are left alone. */

const clip = (text: string, max: number): string => {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`
}

interface PathStep {
  t: number
  actions: ActionSpace
  action: Action
  info: StepInfo
  view: StepView
}

/**
 * What the episode visited, in order: the entity each LOOKUP followed, the sentences each step
 * committed (Harness-G), the documents each step curated (Harness-1), each marked gold (a gold
 * sentence, or a node of a gold document) or not.
 */
function pathOf(raw: WorkspaceHandle, steps: readonly PathStep[], gold: { sentenceIds: ReadonlySet<number>; documentIds: ReadonlySet<number> }): PathNode[] {
  const { sentences, chunks } = corpusRepositories(raw)
  const goldOfDocument = (documentId: number | undefined): 'document' | null => (documentId !== undefined && gold.documentIds.has(documentId) ? 'document' : null)
  const out: PathNode[] = []
  let committed = new Set<number>()
  let curated = new Set<string>()
  for (const s of steps) {
    if (s.info.valid && s.action.kind === 'menu' && s.actions.kind === 'menu') {
      const id = s.action.id
      const item = s.actions.items.find((i) => i.id === id)
      const entity = item?.target?.entity
      if (entity && entity.ids.length > 0) {
        out.push({ t: s.t, node: `e:${entity.ids[0]}`, kind: 'entity', role: 'looked-up', label: entity.name, title: null, gold: null })
      }
    }
    if (s.view.committed) {
      for (const c of s.view.committed) {
        if (committed.has(c.sentenceId)) continue
        const documentId = sentences.withTitle(c.sentenceId)?.documentId
        out.push({
          t: s.t, node: `s:${c.sentenceId}`, kind: 'sentence', role: 'committed', label: clip(c.text, 90), title: c.title,
          gold: gold.sentenceIds.has(c.sentenceId) ? 'sentence' : goldOfDocument(documentId),
        })
      }
      committed = new Set(s.view.committed.map((c) => c.sentenceId))
    }
    if (s.view.memory) {
      for (const c of s.view.memory.curated) {
        const chunkId = /^D(\d+)$/.exec(c.id)?.[1]
        if (curated.has(c.id) || chunkId === undefined) continue
        const chunk = chunks.withTitle(Number(chunkId))
        out.push({ t: s.t, node: `p:${chunkId}`, kind: 'paragraph', role: 'curated', label: c.title || c.id, title: chunk?.title ?? c.title, gold: goldOfDocument(chunk?.documentId) })
      }
      curated = new Set(s.view.memory.curated.map((c) => c.id))
    }
  }
  return out
}

/** The question's gold as the episode stored it, resolved against the workspace now, with what the episode did with each unit. */
function goldEvidenceOf(raw: WorkspaceHandle, storedGold: { supportingFacts?: SupportingFact[]; supportingDocs?: string[] }, outcome: EpisodeOutcome): EpisodeGold & { sentenceIds: Set<number>; documentIds: Set<number> } {
  const resolved = resolveGold(raw, { supportingDocs: storedGold.supportingDocs ?? [], supportingFacts: storedGold.supportingFacts ?? [] })
  const { sentences, chunks } = corpusRepositories(raw)
  /** Sentence ids, chunk ids and document ids an evidence set covers. */
  const cover = (ids: EpisodeOutcome['evidence']) => {
    const sentenceIds = new Set(ids.sentenceIds ?? [])
    const chunkIds = new Set(ids.chunkIds ?? [])
    const documentIds = new Set<number>()
    for (const id of sentenceIds) {
      const s = sentences.withTitle(id)
      if (s) documentIds.add(s.documentId)
    }
    if (chunkIds.size) for (const c of chunks.spans([...chunkIds])) documentIds.add(c.documentId)
    return { sentenceIds, chunkIds, documentIds }
  }
  const evidence = cover(outcome.evidence)
  const seen = cover(outcome.seen)
  const sentenceStatus = (sentenceId: number | null, chunkId: number | null) => {
    if (sentenceId === null) return 'missed' as const
    if (evidence.sentenceIds.has(sentenceId) || (chunkId !== null && evidence.chunkIds.has(chunkId))) return 'committed' as const
    if (seen.sentenceIds.has(sentenceId) || (chunkId !== null && seen.chunkIds.has(chunkId))) return 'seen' as const
    return 'missed' as const
  }
  const documentStatus = (documentId: number | null) =>
    documentId === null ? ('missed' as const) : evidence.documentIds.has(documentId) ? ('committed' as const) : seen.documentIds.has(documentId) ? ('seen' as const) : ('missed' as const)
  return {
    sentences: resolved.facts.map((f) => {
      const row = f.sentenceId !== null ? sentences.withTitle(f.sentenceId) : undefined
      return { title: f.title, ord: f.sentence, sentenceId: f.sentenceId, documentId: f.documentId, text: row?.text ?? null, status: sentenceStatus(f.sentenceId, row?.chunkId ?? null) }
    }),
    documents: resolved.documents.map((d) => ({ name: d.name, documentId: d.documentId, title: d.title, status: documentStatus(d.documentId) })),
    missing: resolved.missing,
    sentenceIds: new Set(resolved.sentenceIds),
    documentIds: new Set(resolved.documentIds),
  }
}

/**
 * One episode with every step, each described by its environment (what changed, working memory or
 * committed evidence). A training rollout, stored compactly, is replayed to rebuild its steps.
 */
export async function getEpisode(raw: WorkspaceHandle, episodeId: number) {
  const runs = runStore(raw)
  const r = runs.episodeWithRun(episodeId)
  if (!r) return null
  // Every kind of run config names its environment and resolved config at the top level.
  const parsed = RunConfig.safeParse(JSON.parse(r.run_config_json))
  const envSource = parsed.success ? parsed.data : { environment: '', envConfig: {} }
  const environment = envSource.environment
  const describe = environmentNames().includes(environment) ? environmentFactory(environment).describeStep : null
  const describeOf = (previous: unknown, snapshot: unknown) => (describe ? describe(previous, snapshot) : { changes: [], memory: null, committed: null })
  const outcome: EpisodeOutcome = episodeColumns.outcome.read(r.outcome_json)
  const storedGold = episodeColumns.gold.read(r.gold_json)
  const { sentenceIds, documentIds, ...goldEvidence } = goldEvidenceOf(raw, storedGold, outcome)
  const base = { ...toEpisode(r), seed: r.seed, environment, envConfig: envSource.envConfig ?? {}, runName: r.run_name, runKind: r.run_kind, outcome, goldEvidence, prunedAt: r.pruned_at ?? null }
  const withPath = <S extends PathStep>(steps: S[]) => ({ steps, path: pathOf(raw, steps, { sentenceIds, documentIds }) })
  if (r.steps_blob) {
    const { trajectory, faithful } = await replayRollout(raw, {
      environment, envConfig: base.envConfig, questionId: r.question_id, question: r.question, seed: r.seed,
      gold: storedGold, outcomeJson: r.outcome_json, steps: r.steps_blob,
    })
    let previous: unknown = trajectory.initialSnapshot
    return {
      ...base,
      replay: { faithful, note: faithful ? 'Rebuilt by replaying the stored actions.' : 'Replayed from the stored actions, but the replay no longer ends with the stored evidence: the corpus or the environment changed since this rollout.' },
      ...withPath(
        trajectory.steps.map((s) => {
          const view = describeOf(previous, s.snapshot)
          previous = s.snapshot
          const { snapshot: _snapshot, observation: _observation, ...step } = s
          return { ...step, view, credit: creditOf(step.decision) }
        }),
      ),
    }
  }
  const steps = runs.episodeSteps(episodeId)
  let previous: unknown = episodeColumns.initialSnapshot.readNullable(r.initial_snapshot_json)
  return {
    ...base,
    replay: null,
    ...withPath(
      steps.map((s) => {
        const snapshot = stepColumns.snapshot.read(s.snapshot_json)
        const view = describeOf(previous, snapshot)
        previous = snapshot
        const decision = stepColumns.decision.read(s.decision_json)
        return {
          t: s.t,
          observationText: s.observation_text,
          actions: stepColumns.actions.read(s.actions_json),
          previews: stepColumns.previews.readNullable(s.previews_json),
          action: stepColumns.action.read(s.action_json),
          decision,
          info: stepColumns.info.read(s.info_json),
          ms: s.ms,
          view,
          credit: creditOf(decision),
        }
      }),
    ),
  }
}
