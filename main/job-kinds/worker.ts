/** Worker-thread entry: runs one job and reports to the JobManager. */
import { parentPort, workerData } from 'node:worker_threads'
import { JobKind, jobKinds } from '../../preload/contract'
import { reportModelHold, setModelHoldReporter } from '../jobs/model-hold-reporter'
import { JobCancelledError, type JobContext, type WorkerInput, type WorkerMessage } from '../jobs/protocol'
import { jobRunners } from '.'

const input = workerData as WorkerInput
const flag = new Int32Array(input.cancelFlag)
const post = (m: WorkerMessage): void => parentPort?.postMessage(m)

// Every model this thread loads is reported, so the Models page can say which job holds it.
setModelHoldReporter((path, held) => post({ type: 'model', path, held }))

const ctx: JobContext = {
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
  reportModelHold,
}

async function main(): Promise<void> {
  const kind = JobKind.safeParse(input.kind)
  if (!kind.success) return post({ type: 'failed', error: `Unknown job kind: ${input.kind}` })
  try {
    const outcome = await jobRunners[kind.data](ctx)
    // The result is part of the contract: a runner that drifts from its schema fails here, not in a reader.
    const checked = jobKinds[kind.data].result.safeParse(outcome.result)
    if (!checked.success) {
      const issues = checked.error.issues.map((i) => `${i.path.join('.') || '(result)'}: ${i.message}`).join('; ')
      return post({ type: 'failed', error: `${kind.data} produced a result that does not match its contract: ${issues}` })
    }
    post({ type: 'done', result: checked.data, message: outcome.message })
  } catch (err) {
    if (err instanceof JobCancelledError) post({ type: 'cancelled' })
    else {
      const code = (err as { code?: unknown } | null)?.code
      post({ type: 'failed', error: err instanceof Error ? err.message : String(err), ...(typeof code === 'string' ? { code } : {}) })
    }
  }
}

void main()
