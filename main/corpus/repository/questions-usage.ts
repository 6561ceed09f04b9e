/**
 * Which runs used a question set's splits (so they are frozen), and a question's episodes across runs.
 * Runs record their split in their stored config: an evaluation at $.split, a training run at
 * $.config.train.split and $.config.heldOut.split, each beside its question set id.
 */
import { statement, type WorkspaceHandle } from './statements'

export interface SplitUseRow {
  runId: number
  name: string
  kind: string
  split: string
}

export interface QuestionEpisodeRow {
  episodeId: number
  runId: number
  runName: string
  runKind: string
  trainStep: number | null
  answer: string | null
  turns: number
  metricsJson: string
}

export class QuestionUsageRepository {
  private readonly s

  constructor(raw: WorkspaceHandle) {
    this.s = {
      usedBy: statement<[{ setId: number }], SplitUseRow>(
        raw,
        `select id as runId, name, kind, split from (
           select id, name, kind, json_extract(config_json, '$.split') as split, json_extract(config_json, '$.questionSetId') as setId from runs
           union all
           select id, name, kind, json_extract(config_json, '$.config.train.split'), json_extract(config_json, '$.config.train.questionSetId') from runs
           union all
           select id, name, kind, json_extract(config_json, '$.config.heldOut.split'), json_extract(config_json, '$.config.heldOut.questionSetId') from runs
         ) where setId = @setId and split is not null group by id, split order by id, split`,
      ),
      episodes: statement<[number, number], QuestionEpisodeRow>(
        raw,
        `select e.id as episodeId, r.id as runId, r.name as runName, r.kind as runKind, e.train_step as trainStep, e.answer, e.turns, e.metrics_json as metricsJson
         from episodes e join runs r on r.id = e.run_id where e.question_id = ? order by r.id desc, e.train_step, e.id limit ?`,
      ),
    }
  }

  /** Runs that used a split of the set, by run id. */
  usedBy(setId: number): SplitUseRow[] {
    return this.s.usedBy().all({ setId })
  }

  /** The question's episodes, newest run first. */
  episodes(questionId: number, limit: number): QuestionEpisodeRow[] {
    return this.s.episodes().all(questionId, limit)
  }
}
