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
import { questionsGenerateJob } from './questions-generate'
import { questionsImportJob } from './questions-import'
import { trainJob } from './train'

/** The runner of every kind the contract declares (a kind without one is a type error here); the worker looks them up. */
export const jobRunners: { [K in JobKind]: JobKindRunner<K> } = {
  'db.maintenance': maintenanceJob,
  'corpus.ingest': ingestJob,
  'corpus.embed': embedJob(),
  'eval.run': evalJob,
  'model.download': modelDownloadJob,
  'graph.export': graphExportJob,
  'train.run': trainJob,
  'questions.generate': questionsGenerateJob,
  'questions.import': questionsImportJob,
  'ablation.run': ablationJob,
  'data.export': dataExportJob,
  'findings.run': findingsJob,
}
