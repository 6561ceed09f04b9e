import type { modelRoutes } from '../../../preload/contract'
import type { Services } from '../../app/services'
import type { HandlerGroup } from './handler-group'

export function modelHandlers({ models }: Services): HandlerGroup<typeof modelRoutes> {
  return {
    'models.list': () => models.list(),
    'models.add': ({ path, role }) => models.add(path, role),
    'models.remove': async ({ id }) => {
      await models.remove(id)
      return { removed: true as const }
    },
    'models.load': ({ id }) => models.load(id),
    'models.unload': ({ id }) => models.unload(id),
    'models.registerLora': ({ adapterId, baseId, scale }) => models.lora.register(adapterId, baseId, scale),
    'models.unregisterLora': async ({ adapterId, baseId }) => {
      await models.lora.unregister(adapterId, baseId)
      return { removed: true as const }
    },
    'models.runtime': () => models.runtime(),
  }
}
