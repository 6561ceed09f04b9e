import { ApiError, type AppInfo, type systemRoutes } from '../../../preload/contract'
import type { Services } from '../../app/services'
import type { HandlerGroup } from './handler-group'

/** Capabilities only some hosts have (Electron's native dialogs). */
export interface HostCapabilities {
  mode: AppInfo['mode']
  pickFolder?: (title?: string) => Promise<string | null>
  pickFile?: (title?: string, extensions?: string[]) => Promise<string | null>
}

export function systemHandlers(services: Services, host: HostCapabilities): HandlerGroup<typeof systemRoutes> {
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
    'system.pickFile': async ({ title, extensions }) => {
      if (!host.pickFile) throw new ApiError('UNSUPPORTED', 'No native file picker in this mode: type the file path instead')
      return { path: await host.pickFile(title, extensions) }
    },
  }
}
