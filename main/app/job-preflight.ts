import { ApiError, type Job, type JobKind } from '../../preload/contract'
import type { OpenedDatabase } from '../db/open'
import type { WorkspaceDatabase } from '../db/schema'
import { corpusRepositories } from '../corpus/repository'
import { validateAblationRun } from '../experiments/ablation'
import { validateFindingsRun } from '../experiments/findings'
import { validateEvalParams, validateTrainParams } from '../experiments/validate'
import type { JobPreflight } from '../jobs/manager'

/** Checks run before a job is queued, where a kind needs more than its parameter schema. */
export function jobPreflight(
  workspaceDb: (workspaceId: string) => Promise<OpenedDatabase<WorkspaceDatabase>>,
  activeJobs: (workspaceId: string, kind: JobKind) => Promise<Job[]>,
): JobPreflight {
  return {
    // The environment, its config delta, the policy and the split: a typo is a validation error now, not a failed run later.
    'eval.run': async (params, workspaceId) => validateEvalParams((await workspaceDb(workspaceId!)).raw, params),
    // Registry names, splits that overlap or are empty, a resume of a run that does not exist: refused before queueing.
    // A new run's config is stored resolved, so the worker runs exactly what was checked here.
    'train.run': async (params, workspaceId) => validateTrainParams((await workspaceDb(workspaceId!)).raw, params),
    // A name already taken: refused now, not after the whole file was read.
    'questions.import': async (params, workspaceId) => {
      if (corpusRepositories((await workspaceDb(workspaceId!)).raw).questions.setIdByName(params.name) !== undefined) {
        throw new ApiError('CONFLICT', `A question set named "${params.name}" exists already: pick another name`)
      }
    },
    // An unknown or finished ablation: refused before queueing (a finished one is re-run as a copy).
    // ... and one already queued or running: two jobs would write the same cells.
    'ablation.run': async (params, workspaceId) => {
      validateAblationRun((await workspaceDb(workspaceId!)).raw, params.ablationId)
      const busy = (await activeJobs(workspaceId!, 'ablation.run')).find((j) => j.params.ablationId === params.ablationId)
      if (busy) throw new ApiError('CONFLICT', `Ablation #${params.ablationId} is already ${busy.status} (job ${busy.id}): wait for it or cancel it first`)
    },
    // The same for a findings run: it exists, is not finished, and no other job runs it.
    'findings.run': async (params, workspaceId) => {
      validateFindingsRun((await workspaceDb(workspaceId!)).raw, params.findingsId)
      const busy = (await activeJobs(workspaceId!, 'findings.run')).find((j) => j.params.findingsId === params.findingsId)
      if (busy) throw new ApiError('CONFLICT', `Findings run #${params.findingsId} is already ${busy.status} (job ${busy.id}): wait for it or cancel it first`)
    },
  }
}
