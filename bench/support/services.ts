import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RouteInput, RouteName, RouteOutput } from '../../preload/contract'
import { dispatch } from '../../main/api/dispatch'
import { createHandlers } from '../../main/api/handlers'
import { createServices, type Services } from '../../main/app/services'
import type { WorkerEntry } from '../../main/jobs/manager'
import { sourceWorkerEntry } from '../../main/job-kinds/source-entry'

/** The job worker from source: the thread registers tsx so it can run TypeScript. */
export const sourceWorker = sourceWorkerEntry()

export function tempDir(prefix = 'harness-lab-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

export interface TestBackend {
  dataDir: string
  services: Services
  call<R extends RouteName>(route: R, input: RouteInput<R>): Promise<RouteOutput<R>>
  close(): Promise<void>
}

/** Real services on a real SQLite folder, called through the same dispatcher every transport uses. */
export async function startBackend(dataDir?: string, options: { cancelGraceMs?: number; jobConcurrency?: number; worker?: WorkerEntry; tempPrefix?: string } = {}): Promise<TestBackend> {
  const tmp = dataDir ? null : tempDir(options.tempPrefix)
  const dir = dataDir ?? tmp!.dir
  const services = await createServices({ dataDir: dir, worker: options.worker ?? sourceWorker, cancelGraceMs: options.cancelGraceMs, jobConcurrency: options.jobConcurrency })
  const handlers = createHandlers(services, { mode: 'cli' })
  return {
    dataDir: dir,
    services,
    async call(route, input) {
      const env = await dispatch(handlers, route, input)
      if (!env.ok) throw Object.assign(new Error(env.error.message), { body: env.error })
      return env.data as never
    },
    async close() {
      await services.close()
      tmp?.cleanup()
    },
  }
}
