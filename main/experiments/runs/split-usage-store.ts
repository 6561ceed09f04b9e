/**
 * Which runs used a question set's splits (so the splits are frozen), and a question's episodes across
 * runs. Runs record their questions in their RunConfig (preload/contract/run-config.ts): an evaluation
 * or ablation cell at the top level, a training run under `train` and `heldOut`, each a QuestionRange.
 * The questions layer receives this repository from its callers as its QuestionUsage (main/questions/usage.ts).
 */
import { perHandle, statement, type WorkspaceHandle } from '../../corpus/repository'
import type { QuestionEpisodeRow, QuestionUsage, SplitUseRow } from '../../questions/usage'

export class SplitUsageRepository implements QuestionUsage {
  private readonly s

  constructor(raw: WorkspaceHandle) {
    this.s = {
      // JSON paths into the stored RunConfig, one branch per place a kind keeps a QuestionRange.
      usedBy: statement<[{ setId: number }], SplitUseRow>(
        raw,
        `select id as runId, name, kind, split from (
           select id, name, kind, json_extract(config_json, '$.split') as split, json_extract(config_json, '$.questionSetId') as setId from runs
             where json_extract(config_json, '$.kind') in ('evaluation', 'ablation-cell')
           union all
           select id, name, kind, json_extract(config_json, '$.train.split'), json_extract(config_json, '$.train.questionSetId') from runs
             where json_extract(config_json, '$.kind') = 'training'
           union all
           select id, name, kind, json_extract(config_json, '$.heldOut.split'), json_extract(config_json, '$.heldOut.questionSetId') from runs
             where json_extract(config_json, '$.kind') = 'training'
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

/** The split-usage repository of a workspace database (one per handle). */
export const splitUsage = perHandle((raw) => new SplitUsageRepository(raw))
