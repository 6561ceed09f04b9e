/**
 * Ablations in the workspace database: the saved config, its resolved rows, what it ran on, its cells
 * (row x seed, each with its runs) and, once finished, its results. Every SQL statement on these tables is here.
 */
import type { Selectable } from 'kysely'
import { perHandle, statement, type WorkspaceHandle } from '../../corpus/repository'
import { AblationConfigSchema, AblationResultsSchema, ResolvedRowSchema } from '../../../preload/contract'
import { jsonColumn } from '../../db/json-column'
import type { AblationCellTable, AblationTable } from '../../db/schema'
import { RanOn } from '../runs/run-columns'

/** The ablations table's JSON columns, each with its schema and codec. */
export const ablationColumns = {
  config: jsonColumn('ablations.config_json', AblationConfigSchema),
  resolved: jsonColumn('ablations.resolved_json', ResolvedRowSchema.array()),
  ranOn: jsonColumn('ablations.ran_on_json', RanOn),
  results: jsonColumn('ablations.results_json', AblationResultsSchema),
}

export type AblationRecord = Selectable<AblationTable>
export type AblationCellRecord = Selectable<AblationCellTable>
export type CellEpisode = { id: number; question_id: number; question: string; metrics_json: string; ms: number }
/** What the ablation reads of a stored step (the runs repository decodes whichever format holds it). */
export type CellStep = { observation_text: string; actions_json: string; action_json: string; decision_json: string }
export type AblationStatus = 'saved' | 'running' | 'done' | 'failed' | 'cancelled'

export class AblationStore {
  private readonly s

  constructor(private readonly raw: WorkspaceHandle) {
    this.s = {
      insert: statement<[string, string, string, number | null, string], Pick<AblationRecord, 'id'>>(
        raw,
        "insert into ablations (name, status, config_json, resolved_json, rerun_of, created_at) values (?, 'saved', ?, ?, ?, ?) returning id",
      ),
      insertCell: statement<[number, number, number, number], never>(raw, "insert into ablation_cells (ablation_id, row, seed, status, done, total) values (?, ?, ?, 'pending', 0, ?)"),
      list: statement<[], AblationRecord>(raw, 'select * from ablations order by id desc'),
      get: statement<[number], AblationRecord>(raw, 'select * from ablations where id = ?'),
      cells: statement<[number], AblationCellRecord>(raw, 'select * from ablation_cells where ablation_id = ? order by row, seed'),
      start: statement<[string | null, string, number], never>(raw, "update ablations set status = 'running', job_id = ?, ran_on_json = coalesce(ran_on_json, ?), error = null, finished_at = null where id = ?"),
      finish: statement<[string, string | null, string | null, string, number], never>(raw, 'update ablations set status = ?, results_json = coalesce(?, results_json), error = ?, finished_at = ? where id = ?'),
      cellStatus: statement<[string, string | null, number, number, number], never>(raw, 'update ablation_cells set status = ?, error = ? where ablation_id = ? and row = ? and seed = ?'),
      cellProgress: statement<[number, number, number, number, number], never>(raw, 'update ablation_cells set done = ?, total = ? where ablation_id = ? and row = ? and seed = ?'),
      cellRun: statement<[number, number, number, number], never>(raw, 'update ablation_cells set run_id = ? where ablation_id = ? and row = ? and seed = ?'),
      cellTrainRun: statement<[number, number, number, number], never>(raw, 'update ablation_cells set train_run_id = ? where ablation_id = ? and row = ? and seed = ?'),
      // A cell left running by a crashed or cancelled job starts again (its finished training steps are kept).
      resetUnfinished: statement<[number], never>(raw, "update ablation_cells set status = 'pending', error = null where ablation_id = ? and status in ('running', 'failed')"),
      remove: statement<[number], never>(raw, 'delete from ablations where id = ?'),
      episodes: statement<[number], CellEpisode>(raw, 'select id, question_id, question, metrics_json, ms from episodes where run_id = ? and train_step is null and question_id is not null order by id'),
      trainRunNamed: statement<[string], number>(raw, "select id from runs where kind = 'train' and name = ? order by id desc limit 1", { pluck: true }),
      runStatus: statement<[number], string>(raw, 'select status from runs where id = ?', { pluck: true }),
    }
  }

  create(name: string, config: unknown, resolved: unknown, cells: { row: number; seed: number; total: number }[], rerunOf: number | null = null): number {
    return this.raw.transaction(() => {
      const { id } = this.s.insert().get(name, JSON.stringify(config), JSON.stringify(resolved), rerunOf, new Date().toISOString())!
      for (const c of cells) this.s.insertCell().run(id, c.row, c.seed, c.total)
      return id
    }).immediate()
  }

  list(): AblationRecord[] {
    return this.s.list().all()
  }

  get(id: number): AblationRecord | undefined {
    return this.s.get().get(id)
  }

  cells(id: number): AblationCellRecord[] {
    return this.s.cells().all(id)
  }

  /** Marks the ablation running; what it runs on is recorded the first time only (a resume keeps it). */
  start(id: number, jobId: string | null, ranOn: unknown): void {
    this.raw.transaction(() => {
      this.s.start().run(jobId, JSON.stringify(ranOn), id)
      this.s.resetUnfinished().run(id)
    }).immediate()
  }

  finish(id: number, status: Exclude<AblationStatus, 'saved' | 'running'>, results: unknown | null, error: string | null): void {
    this.s.finish().run(status, results === null ? null : JSON.stringify(results), error, new Date().toISOString(), id)
  }

  setCellStatus(id: number, row: number, seed: number, status: 'pending' | 'running' | 'done' | 'failed', error: string | null = null): void {
    this.s.cellStatus().run(status, error, id, row, seed)
  }

  setCellProgress(id: number, row: number, seed: number, done: number, total: number): void {
    this.s.cellProgress().run(done, total, id, row, seed)
  }

  setCellRun(id: number, row: number, seed: number, runId: number): void {
    this.s.cellRun().run(runId, id, row, seed)
  }

  setCellTrainRun(id: number, row: number, seed: number, runId: number): void {
    this.s.cellTrainRun().run(runId, id, row, seed)
  }

  /** The evaluation episodes of a cell's run, in storage order. */
  episodes(runId: number): CellEpisode[] {
    return this.s.episodes().all(runId)
  }

  /** The newest training run of that name (an ablation names its cells' runs uniquely). */
  trainRunNamed(name: string): number | undefined {
    return this.s.trainRunNamed().get(name)
  }

  runStatus(runId: number): string | undefined {
    return this.s.runStatus().get(runId)
  }

  remove(id: number): boolean {
    const before = this.get(id) !== undefined
    this.s.remove().run(id)
    return before
  }
}

export const ablationStore: (raw: WorkspaceHandle) => AblationStore = perHandle((raw) => new AblationStore(raw))
