import type { graphRoutes } from '../../../preload/contract'
import type { Services } from '../../app/services'
import { graphStructure, HUB_MIN_DEGREE, neighbourhood, searchNodes } from '../../graph/store'
import { asApiErrors } from '../feature-errors'
import { workspaceRaw, type HandlerGroup } from './handler-group'

export function graphHandlers(services: Services): HandlerGroup<typeof graphRoutes> {
  const raw = workspaceRaw(services)
  return {
    'graph.neighbourhood': async ({ workspaceId, center, depth, limit }) => {
      const db = await raw(workspaceId)
      return asApiErrors(() => neighbourhood(db, center, { depth, limit }))
    },
    'graph.stats': async ({ workspaceId, top }) => {
      const db = await raw(workspaceId)
      return asApiErrors(() => ({ ...graphStructure(db, top), hubMinDegree: HUB_MIN_DEGREE }))
    },
    'graph.searchNodes': async ({ workspaceId, text, limit }) => {
      const db = await raw(workspaceId)
      return asApiErrors(() => searchNodes(db, text, limit))
    },
  }
}
