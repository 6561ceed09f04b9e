import type { WorkerEntry } from '../jobs/manager'

/**
 * The job worker run from source (the CLI and tests under tsx): source-worker.mjs registers tsx inside the
 * thread and imports worker.ts. The job kinds supply their worker file, so the queue (main/jobs) never
 * names a file above it; the built app passes out/main/job-worker.js instead.
 */
export const sourceWorkerEntry = (): WorkerEntry => ({
  url: new URL('./source-worker.mjs', import.meta.url),
  workerData: { sourceEntry: new URL('./worker.ts', import.meta.url).href },
})
