import { EvalParams } from '../../preload/contract'
import { APP_VERSION } from '../config/version'
import { workspaceMigrations } from '../db/migrations'
import { openDatabase } from '../db/open'
import { ensureEnvironments } from '../experiments/catalog'
import { runEvaluation } from '../experiments/evaluate'
import { answererFor, policyFor } from '../experiments/factories'
import type { JobContext, JobOutcome } from '../jobs/protocol'

const pct = (v: number | null | undefined): string => (v === null || v === undefined ? '–' : `${(v * 100).toFixed(1)}`)

/** An evaluation over a question split, in a worker thread with its own database connection and models. */
export async function runEvalJob(ctx: JobContext<unknown>): Promise<JobOutcome> {
  const params = EvalParams.parse(ctx.params)
  if (!ctx.workspaceDbFile) throw new Error('eval.run needs a workspace')
  ensureEnvironments()
  const opened = await openDatabase(ctx.workspaceDbFile, workspaceMigrations)
  const resources: { dispose(): Promise<void> }[] = [{ dispose: () => opened.close() }]
  try {
    const policy = await policyFor(params.policy, params.environment)
    resources.unshift(policy)
    const answerer = await answererFor(params.answerer)
    resources.unshift(answerer)
    const policyName = params.policy.kind === 'scripted' ? params.policy.name : params.policy.modelPath.split('/').pop()
    const summary = await runEvaluation(
      opened.raw,
      { ...params, name: params.name || `${params.environment} · ${policyName}` },
      {
        policy: policy.value,
        answerer: answerer.value,
        appVersion: APP_VERSION,
        jobId: ctx.jobId,
        progress: (p, stage, message) => ctx.progress(p, stage, message),
        throwIfCancelled: () => ctx.throwIfCancelled(),
      },
    )
    const a = summary.aggregates
    const message =
      `Run #${summary.runId}: ${summary.episodes} episodes · EM ${pct(a['answer.em.official']?.mean)} · F1 ${pct(a['answer.f1.official']?.mean)}` +
      ` · SP recall ${pct(a['sp.recall']?.mean)} · paragraph recall ${pct(a['paragraph.recall']?.mean)} · answerer: ${summary.answerer.name}`
    return { result: { runId: summary.runId, episodes: summary.episodes, seconds: summary.seconds }, message }
  } finally {
    // Answerer, policy, then the database: whatever was created, in reverse order.
    for (const r of resources) await r.dispose()
  }
}
