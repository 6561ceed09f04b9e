import type { JobKind } from '../../preload/contract'
import type { JobKindRunner } from '../jobs/define-job-kind'
import { ablationJob } from './ablation'
import { embedJob } from './embed'
import { evalJob } from './eval'
import { dataExportJob } from './export'
import { findingsJob } from './findings'
import { graphExportJob } from './graph-export'
import { ingestJob } from './ingest'
import { maintenanceJob } from './maintenance'
import { modelDownloadJob } from './model-download'
import { questionsGenerateJobWith } from './questions-generate'
import { getSharedRuntime } from '../llm/llama-runtime'
import { questionsImportJob } from './questions-import'
import { trainJob } from './train'

/**
 * The runner of every kind the contract declares (a kind without one is a type error here); the worker looks
 * them up. This is the worker's composition root: the kinds that load models are handed the LLM home here.
 */
export const jobRunners: { [K in JobKind]: JobKindRunner<K> } = {
  'db.maintenance': maintenanceJob,
  'corpus.ingest': ingestJob,
  'corpus.embed': embedJob(),
  'eval.run': evalJob(getSharedRuntime),
  'model.download': modelDownloadJob,
  'graph.export': graphExportJob,
  'train.run': trainJob(getSharedRuntime),
  'questions.generate': questionsGenerateJobWith(getSharedRuntime),
  'questions.import': questionsImportJob,
  'ablation.run': ablationJob(getSharedRuntime),
  'data.export': dataExportJob,
  'findings.run': findingsJob(getSharedRuntime),
}
