import { APP_VERSION } from '../config/version'
import type { AblationDeps } from '../experiments/ablation'
import { answererFor } from '../experiments/factories'
import type { JobContext } from '../jobs/protocol'
import type { Resource } from '../jobs/define-job-kind'
import type { LlmHome } from '../llm/llama-runtime'

/**
 * What an experiment job (a training run, an ablation matrix, a findings run) hands its runner: the answerer
 * it names, owned by the job so its model is released when the job ends, the job's progress and cancel,
 * and the LLM home the worker's composition root (job-kinds/index.ts) hands every job kind.
 */
export async function experimentDeps(ctx: JobContext, own: <T extends Resource>(resource: T, modelPath?: string) => T, answererSpec: AblationDeps['answererSpec'], llm: LlmHome): Promise<AblationDeps> {
  const answerer = own(await answererFor(answererSpec, llm), answererSpec.kind === 'gguf' ? answererSpec.modelPath : undefined)
  return {
    llm,
    answerer: answerer.value,
    answererSpec,
    appVersion: APP_VERSION,
    jobId: ctx.jobId,
    progress: (p, stage, message) => ctx.progress(p, stage, message),
    throwIfCancelled: () => ctx.throwIfCancelled(),
  }
}
