// The job worker from source for component tests. Their happy-dom environment replaces the global URL,
// so the URLs test/helpers/services.ts and the job manager build for the thread are not Node's; this
// entry is given to the manager as a Node file URL and finds the TypeScript worker from its own location.
import { register } from 'tsx/esm/api'

register()
await import(new URL('../../main/job-kinds/worker.ts', import.meta.url).href)
