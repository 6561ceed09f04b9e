/** Worker-thread entry: runs one job and reports to the JobManager. */
import { parentPort, workerData } from 'node:worker_threads'
import { jobRunners } from '.'
import { JobCancelledError, type JobContext, type WorkerInput, type WorkerMessage } from '../jobs/protocol'

const input = workerData as WorkerInput
const flag = new Int32Array(input.cancelFlag)
const post = (m: WorkerMessage): void => parentPort?.postMessage(m)

const ctx: JobContext<unknown> = {
  jobId: input.jobId,
  params: input.params,
  dataDir: input.dataDir,
  workspaceDbFile: input.workspaceDbFile,
  progress: (progress, stage, message = '') => post({ type: 'progress', progress: Math.min(1, Math.max(0, progress)), stage, message }),
  throwIfCancelled: () => {
    if (Atomics.load(flag, 0) === 1) throw new JobCancelledError()
  },
  get cancelled() {
    return Atomics.load(flag, 0) === 1
  },
}

async function main(): Promise<void> {
  const runner = jobRunners[input.kind as keyof typeof jobRunners]
  if (!runner) return post({ type: 'failed', error: `Unknown job kind: ${input.kind}` })
  try {
    const outcome = await runner(ctx)
    post({ type: 'done', result: outcome.result, message: outcome.message })
  } catch (err) {
    if (err instanceof JobCancelledError) post({ type: 'cancelled' })
    else post({ type: 'failed', error: err instanceof Error ? err.message : String(err) })
  }
}

void main()
