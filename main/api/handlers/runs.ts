import { ApiError, type runRoutes } from '../../../preload/contract'
import type { Services } from '../../app/services'
import { harnessCatalog } from '../../experiments/catalog'
import { compareRuns, metricNames } from '../../experiments/compare'
import { getEpisode, listEpisodes, listRuns } from '../../experiments/queries'
import { workspaceRaw, type HandlerGroup } from './handler-group'

export function runHandlers(services: Services): HandlerGroup<typeof runRoutes> {
  const raw = workspaceRaw(services)
  const { jobs } = services
  return {
    'harness.catalog': async () => harnessCatalog(),
    // A run still marked running whose job has ended shows the job's final status.
    'runs.list': async ({ workspaceId }) => listRuns(await raw(workspaceId), jobs.finalStatus),
    'runs.compare': async ({ workspaceId, baselineRunId, runIds, metric }) => {
      const db = await raw(workspaceId)
      return {
        metrics: metricNames(db, [baselineRunId, ...runIds]),
        comparisons: compareRuns(db, baselineRunId, runIds, metric).map((c) => ({
          runId: c.runId, count: c.count, baselineMean: c.baselineMean, candidateMean: c.candidateMean, meanDifference: c.meanDifference,
          lower: c.ci?.lower ?? null, upper: c.ci?.upper ?? null, wins: c.wins, ties: c.ties, losses: c.losses,
        })),
      }
    },
    'runs.episodes': async ({ workspaceId, runId, offset, limit }) => listEpisodes(await raw(workspaceId), runId, offset, limit),
    'runs.episode': async ({ workspaceId, episodeId }) => {
      const episode = await getEpisode(await raw(workspaceId), episodeId)
      if (!episode) throw new ApiError('NOT_FOUND', `No episode with id ${episodeId}`)
      return episode
    },
  }
}
