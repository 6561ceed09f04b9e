import type SQLite from 'better-sqlite3'
import type { RouteName } from '../../../preload/contract'
import type { Services } from '../../app/services'
import type { Handlers } from '../dispatch'

/** The handlers of one contract file's routes (e.g. HandlerGroup<typeof corpusRoutes>). */
export type HandlerGroup<Routes> = { [R in keyof Routes & RouteName]: Handlers[R] }

/** The raw connection of a workspace's database (NOT_FOUND for an unknown id). */
export const workspaceRaw =
  (services: Services) =>
  async (workspaceId: string): Promise<SQLite.Database> =>
    (await services.workspaces.handle(workspaceId)).raw
