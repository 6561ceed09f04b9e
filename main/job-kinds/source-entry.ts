import type { WorkerEntry } from '../jobs/manager'
import { sourceWorkerEntryOf } from '../jobs/source-entry'

/**
 * The job worker run from source (the CLI and tests under tsx): worker.ts through the jobs layer's tsx
 * shim. The job kinds supply their worker file, so the queue (main/jobs) never names a file above it;
 * the built app passes out/main/job-worker.js instead.
 */
export const sourceWorkerEntry = (): WorkerEntry => sourceWorkerEntryOf(new URL('./worker.ts', import.meta.url))
