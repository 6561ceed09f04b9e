// Runs a TypeScript worker entry (workerData.sourceEntry) from source, for the CLI, tests and benches under tsx.
// The built app uses its bundled workers instead. Node 20 ignores --import in worker execArgv,
// so tsx is registered here, inside the thread.
import { workerData } from 'node:worker_threads'
import { register } from 'tsx/esm/api'

register()
await import(workerData.sourceEntry)
