import { homedir } from 'node:os'
import { join, resolve } from 'node:path'

export const DATA_DIR_ENV = 'HARNESS_LAB_DATA_DIR'

/** The OS app-data folder: where Electron, browser mode and the CLI all keep the same data. */
export function defaultDataDir(platform = process.platform, env = process.env): string {
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'HarnessLab')
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'HarnessLab')
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'harness-lab')
}

/** Flag beats environment variable beats OS default. */
export function resolveDataDir(flag?: string, env = process.env): string {
  const chosen = flag || env[DATA_DIR_ENV]
  return chosen ? resolve(chosen) : defaultDataDir(process.platform, env)
}

export const appDbFile = (dataDir: string): string => join(dataDir, 'app.db')
/** Where experiment jobs save the GGUF weights they train, one folder per workspace (job-kinds/trained-models.ts). */
export const trainedModelsDir = (dataDir: string): string => join(dataDir, 'models', 'trained')
export const workspaceDbFile = (dataDir: string, workspaceDir: string): string => join(dataDir, workspaceDir, 'workspace.db')
