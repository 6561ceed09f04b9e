import type { jobRoutes } from '../../../preload/contract'
import type { Services } from '../../app/services'
import type { HandlerGroup } from './handler-group'

export function jobHandlers({ jobs }: Services): HandlerGroup<typeof jobRoutes> {
  return {
    'job.list': ({ workspaceId, limit }) => jobs.list({ workspaceId, limit }),
    // The dispatcher parsed the parameters; the manager runs each kind's preflight (an evaluation's split, its models).
    'job.start': (input) => jobs.start(input.kind, 'workspaceId' in input ? input.workspaceId : null, input.params),
    'job.cancel': ({ id }) => jobs.cancel(id),
  }
}
