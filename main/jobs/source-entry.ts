import type { WorkerEntry } from './manager'

/**
 * A worker thread whose entry is a TypeScript file, run from source (the CLI, tests and benches under
 * tsx): source-worker.mjs registers tsx inside the thread, then imports the file. Each worker's owner
 * names its own entry file (job-kinds/source-entry.ts, env-server/router.ts), so no layer reaches
 * another's files through a URL string; the built app passes its bundled entries instead.
 */
export const sourceWorkerEntryOf = (tsFile: URL): WorkerEntry => ({
  url: new URL('./source-worker.mjs', import.meta.url),
  workerData: { sourceEntry: tsFile.href },
})
