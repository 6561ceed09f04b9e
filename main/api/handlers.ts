import { ApiError, type AppInfo } from '../../preload/contract'
import type { Services } from '../app/services'
import type { Handlers } from './dispatch'

/** Capabilities only some hosts have (Electron's native dialogs). */
export interface HostCapabilities {
  mode: AppInfo['mode']
  pickFolder?: (title?: string) => Promise<string | null>
}

export function createHandlers(services: Services, host: HostCapabilities): Handlers {
  const { workspaces, jobs } = services
  return {
    'app.info': async () => ({
      name: 'Harness Lab',
      version: services.version,
      mode: host.mode,
      dataDir: services.dataDir,
      platform: process.platform,
      nativeFolderPicker: host.pickFolder !== undefined,
    }),
    'system.pickFolder': async ({ title }) => {
      if (!host.pickFolder) throw new ApiError('UNSUPPORTED', 'No native folder picker in this mode: type the folder path instead')
      return { path: await host.pickFolder(title) }
    },
    'workspace.list': () => workspaces.list(),
    'workspace.create': ({ name }) => workspaces.create(name),
    'workspace.get': ({ id }) => workspaces.open(id),
    'workspace.rename': ({ id, name }) => workspaces.rename(id, name),
    'workspace.delete': async ({ id, confirmName }) => {
      await workspaces.delete(id, confirmName)
      return { deleted: true as const }
    },
    'job.list': ({ workspaceId, limit }) => jobs.list({ workspaceId, limit }),
    'job.start': ({ kind, workspaceId, params }) => jobs.start(kind, workspaceId, params),
    'job.cancel': ({ id }) => jobs.cancel(id),
  }
}
