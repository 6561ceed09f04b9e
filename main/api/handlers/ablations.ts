import type { ablationRoutes } from '../../../preload/contract'
import type { Services } from '../../app/services'
import { ablationDetail, deleteAblation, listAblations, rerunAblation, saveAblation } from '../../experiments/ablation'
import { workspaceRaw, type HandlerGroup } from './handler-group'

export function ablationHandlers(services: Services): HandlerGroup<typeof ablationRoutes> {
  const raw = workspaceRaw(services)
  const { jobs } = services
  return {
    'ablations.list': async ({ workspaceId }) => listAblations(await raw(workspaceId)),
    'ablations.save': async ({ workspaceId, name, config }) => saveAblation(await raw(workspaceId), name, config),
    // A running ablation whose job has ended shows how the job ended.
    'ablations.get': async ({ workspaceId, id }) => ablationDetail(await raw(workspaceId), id, jobs.finalStatus),
    'ablations.rerun': async ({ workspaceId, id }) => rerunAblation(await raw(workspaceId), id),
    'ablations.delete': async ({ workspaceId, id }) => deleteAblation(await raw(workspaceId), id, jobs.finalStatus),
  }
}
