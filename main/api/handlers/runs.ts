import { ApiError, type runRoutes } from '../../../preload/contract'
import type { Services } from '../../app/services'
import { pairedDifference } from '../../eval'
import { metricCatalog } from '../../experiments/metrics'
import { harnessCatalog } from '../../experiments/catalog'
import { compareRuns, metricNames } from '../../experiments/runs/compare'
import { getEpisode, listComparable, listEpisodes, listRuns } from '../../experiments/runs/read-model'
import { runStore } from '../../experiments/runs/store'
import { workspaceRaw, type HandlerGroup } from './handler-group'

const catalogued = new Set(metricCatalog().map((m) => m.name))

export function runHandlers(services: Services): HandlerGroup<typeof runRoutes> {
  const raw = workspaceRaw(services)
  const { jobs } = services
  return {
    'harness.catalog': async () => harnessCatalog(),
    // A run still marked running whose job has ended shows the job's final status.
    'runs.list': async ({ workspaceId }) => listRuns(await raw(workspaceId), jobs.finalStatus),
    'runs.compare': async ({ workspaceId, baselineRunId, runIds, metric }) => {
      const db = await raw(workspaceId)
      const metrics = metricNames(db, [baselineRunId, ...runIds])
      // A metric is a name these runs store or one the catalogue describes; anything else (a typo,
      // `constructor`, `__proto__`) is the caller's mistake, said as such, never looked up.
      if (!metrics.includes(metric) && !catalogued.has(metric)) {
        const shown = metrics.slice(0, 30).join(', ')
        throw new ApiError('VALIDATION', `Unknown metric "${metric.slice(0, 100)}": these runs store ${shown || 'no metrics yet'}${metrics.length > 30 ? ', …' : ''}`, [
          'metric: not a metric of these runs nor of the metric catalogue',
        ])
      }
      return {
        metrics,
        comparisons: compareRuns(db, baselineRunId, runIds, metric).map((c) => ({
          runId: c.runId, baselineMean: c.baselineMean, candidateMean: c.candidateMean, ...pairedDifference(c), note: c.note,
        })),
      }
    },
    'runs.episodes': async ({ workspaceId, runId, offset, limit, filter }) => listEpisodes(await raw(workspaceId), runId, offset, limit, filter),
    'runs.comparable': async ({ workspaceId, episodeId, limit }) => {
      const found = listComparable(await raw(workspaceId), episodeId, limit)
      if (!found) throw new ApiError('NOT_FOUND', `No episode with id ${episodeId}`)
      return found
    },
    'runs.storage': async ({ workspaceId }) => runStore(await raw(workspaceId)).storage(),
    'runs.prune': async ({ workspaceId, runId, confirm }) => {
      const store = runStore(await raw(workspaceId))
      const run = store.runsWithEpisodeCounts().find((r) => r.id === runId)
      if (!run) throw new ApiError('NOT_FOUND', `No run with id ${runId}`)
      if (confirm !== run.name) throw new ApiError('VALIDATION', `To prune run ${runId}, confirm with its name "${run.name}"`, ['confirm: not the name of the run'])
      // A run marked running whose job has ended (crash, cancel) may be pruned; one still writing may not.
      if (run.status === 'running' && (run.job_id === null || jobs.finalStatus(run.job_id) === undefined)) throw new ApiError('CONFLICT', `Run ${runId} is still running: prune it once it has finished or been stopped`)
      const before = store.storage().find((r) => r.runId === runId)!
      const pruned = store.pruneRun(runId)
      return { runId, pruned, before, after: store.storage().find((r) => r.runId === runId)! }
    },
    'runs.episode': async ({ workspaceId, episodeId }) => {
      const episode = await getEpisode(await raw(workspaceId), episodeId)
      if (!episode) throw new ApiError('NOT_FOUND', `No episode with id ${episodeId}`)
      return episode
    },
  }
}
