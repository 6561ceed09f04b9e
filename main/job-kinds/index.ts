import type { JobKind } from '../../preload/contract'
import type { JobRunner } from '../jobs/protocol'
import { runEmbedJob } from './embed'
import { runEvalJob } from './eval'
import { runGraphExportJob } from './graph-export'
import { runModelDownloadJob } from './model-download'
import { runIngestJob } from './ingest'
import { runMaintenance } from './maintenance'

/** Job kinds by name: the worker looks the runner up here. */
export const jobRunners: Record<JobKind, JobRunner> = {
  'db.maintenance': runMaintenance,
  'corpus.ingest': runIngestJob,
  'corpus.embed': (ctx) => runEmbedJob(ctx),
  'eval.run': runEvalJob,
  'model.download': runModelDownloadJob,
  'graph.export': runGraphExportJob,
}
