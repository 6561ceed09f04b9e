import { z } from 'zod'
import { route } from './define'

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  mode: z.enum(['electron', 'browser', 'cli']),
  dataDir: z.string(),
  platform: z.string(),
  /** False in browser mode: the UI shows a path field instead of a native picker. */
  nativeFolderPicker: z.boolean(),
})
export type AppInfo = z.infer<typeof AppInfo>

export const systemRoutes = {
  'app.info': route('Version, mode and data folder of the running backend', z.object({}).strict(), AppInfo),
  'system.pickFolder': route(
    'Open the native folder picker (Electron only)',
    z.object({ title: z.string().max(200).optional() }).strict(),
    z.object({ path: z.string().nullable() }),
  ),
  'system.pickFile': route(
    'Open the native file picker (Electron only)',
    z.object({ title: z.string().max(200).optional(), extensions: z.array(z.string().regex(/^[a-z0-9]{1,10}$/i)).max(20).optional() }).strict(),
    z.object({ path: z.string().nullable() }),
  ),
}
