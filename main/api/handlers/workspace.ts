import type { workspaceRoutes } from '../../../preload/contract'
import type { Services } from '../../app/services'
import type { HandlerGroup } from './handler-group'

export function workspaceHandlers({ workspaces }: Services): HandlerGroup<typeof workspaceRoutes> {
  return {
    'workspace.list': () => workspaces.list(),
    'workspace.create': ({ name }) => workspaces.create(name),
    'workspace.get': ({ id }) => workspaces.open(id),
    'workspace.rename': ({ id, name }) => workspaces.rename(id, name),
    'workspace.delete': async ({ id, confirmName }) => {
      await workspaces.delete(id, confirmName)
      return { deleted: true as const }
    },
  }
}
