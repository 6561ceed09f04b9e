/**
 * Findings runs in the workspace database, and the one read of training rollouts the retrieval-collapse
 * claim needs (each rollout's accumulated evidence by step and question). Every SQL statement on the
 * findings table is here.
 */
import type { Selectable } from 'kysely'
import { perHandle, statement, type WorkspaceHandle } from '../../corpus/repository'
import type { FindingsTable } from '../../db/schema'
import { episodeColumns } from '../../db/episode-columns'

export type FindingsRecord = Selectable<FindingsTable>
export type FindingsStatus = 'saved' | 'running' | 'done' | 'failed' | 'cancelled'

export class FindingsStore {
  private readonly s

  constructor(private readonly raw: WorkspaceHandle) {
    this.s = {
      insert: statement<[string, string, string, string, string], Pick<FindingsRecord, 'id'>>(
        raw,
        "insert into findings (name, status, config_json, plan_json, experiments_json, created_at) values (?, 'saved', ?, ?, ?, ?) returning id",
      ),
      list: statement<[], FindingsRecord>(raw, 'select * from findings order by id desc'),
      get: statement<[number], FindingsRecord>(raw, 'select * from findings where id = ?'),
      start: statement<[string | null, string, number], never>(raw, "update findings set status = 'running', job_id = ?, ran_on_json = coalesce(ran_on_json, ?), error = null, finished_at = null where id = ?"),
      ranOn: statement<[string, number], never>(raw, 'update findings set ran_on_json = ? where id = ?'),
      experiments: statement<[string, number], never>(raw, 'update findings set experiments_json = ? where id = ?'),
      finish: statement<[string, string | null, string | null, string, number], never>(raw, 'update findings set status = ?, results_json = coalesce(?, results_json), error = ?, finished_at = ? where id = ?'),
      trainingEvidence: statement<[number], { step: number; question_id: number; outcome_json: string }>(
        raw,
        'select train_step as step, question_id, outcome_json from episodes where run_id = ? and train_step is not null and question_id is not null order by id',
      ),
    }
  }

  create(name: string, config: unknown, plan: unknown, experiments: unknown): number {
    return this.s.insert().get(name, JSON.stringify(config), JSON.stringify(plan), JSON.stringify(experiments), new Date().toISOString())!.id
  }

  list(): FindingsRecord[] {
    return this.s.list().all()
  }

  get(id: number): FindingsRecord | undefined {
    return this.s.get().get(id)
  }

  /** Marks the run running; what it runs on is recorded the first time only (a resume keeps it). */
  start(id: number, jobId: string | null, ranOn: unknown): void {
    this.s.start().run(jobId, JSON.stringify(ranOn), id)
  }

  setRanOn(id: number, ranOn: unknown): void {
    this.s.ranOn().run(JSON.stringify(ranOn), id)
  }

  setExperiments(id: number, experiments: unknown): void {
    this.s.experiments().run(JSON.stringify(experiments), id)
  }

  finish(id: number, status: Exclude<FindingsStatus, 'saved' | 'running'>, results: unknown | null, error: string | null): void {
    this.s.finish().run(status, results === null ? null : JSON.stringify(results), error, new Date().toISOString(), id)
  }

  /** Each training rollout of a run: its step, question and accumulated evidence (sentence or chunk ids). */
  trainingEvidence(runId: number): { step: number; questionId: number; evidence: number[] }[] {
    return this.s.trainingEvidence().all(runId).map((r) => {
      const { evidence } = episodeColumns.outcome.read(r.outcome_json)
      return { step: r.step, questionId: r.question_id, evidence: evidence.sentenceIds ?? evidence.chunkIds ?? [] }
    })
  }
}

export const findingsStore: (raw: WorkspaceHandle) => FindingsStore = perHandle((raw) => new FindingsStore(raw))
