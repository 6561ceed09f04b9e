// Runs the TypeScript worker entry from source, for the CLI and tests that run under tsx.
// The built app uses out/main/job-worker.js instead. Node 20 ignores --import in worker execArgv,
// so tsx is registered here, inside the thread.
import { workerData } from 'node:worker_threads'
import { register } from 'tsx/esm/api'

register()
await import(workerData.sourceEntry)
