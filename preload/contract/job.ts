import { z } from 'zod'
import { IngestParams } from './corpus'
import { route } from './define'
import { GraphExportParams } from './graph'
import { EvalParams } from './runs'

export const JobStatus = z.enum(['queued', 'running', 'done', 'failed', 'cancelled'])
export type JobStatus = z.infer<typeof JobStatus>

/** Job kinds the backend knows; each has its own parameter schema. */
export const JobKind = z.enum(['db.maintenance', 'corpus.ingest', 'corpus.embed', 'eval.run', 'model.download', 'graph.export'])
export type JobKind = z.infer<typeof JobKind>

export const MaintenanceParams = z
  .object({
    /** Run VACUUM after the integrity check. */
    vacuum: z.boolean().default(true),
  })
  .strict()

export const EmbedParams = z
  .object({
    modelPath: z.string().trim().min(1, 'modelPath must not be empty').max(4096),
    /** Chunks per embed call and per write transaction: the unit of progress, cancellation and resume. */
    batchSize: z.number().int().min(1).max(1024).default(32),
  })
  .strict()
export type EmbedParams = z.infer<typeof EmbedParams>

export const ModelDownloadParams = z.object({ uri: z.string().trim().min(3).max(2000).regex(/^(hf:|https:\/\/)/, 'use an hf: or https:// URI') }).strict()

export const Job = z.object({
  id: z.string(),
  kind: JobKind,
  workspaceId: z.string().nullable(),
  status: JobStatus,
  progress: z.number().min(0).max(1),
  stage: z.string(),
  message: z.string(),
  error: z.string().nullable(),
  params: z.record(z.string(), z.unknown()),
  result: z.unknown().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
})
export type Job = z.infer<typeof Job>

export const jobRoutes = {
  'job.list': route(
    'List jobs, newest first, optionally for one workspace',
    z.object({ workspaceId: z.string().max(64).optional(), limit: z.number().int().min(1).max(500).default(50) }).strict(),
    z.array(Job),
  ),
  'job.start': route(
    'Queue a job; it runs off the main thread',
    z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('db.maintenance'), workspaceId: z.string().min(1).max(64), params: MaintenanceParams.default({ vacuum: true }) }).strict(),
      z.object({ kind: z.literal('corpus.ingest'), workspaceId: z.string().min(1).max(64), params: IngestParams }).strict(),
      z.object({ kind: z.literal('corpus.embed'), workspaceId: z.string().min(1).max(64), params: EmbedParams }).strict(),
      z.object({ kind: z.literal('eval.run'), workspaceId: z.string().min(1).max(64), params: EvalParams }).strict(),
      z.object({ kind: z.literal('graph.export'), workspaceId: z.string().min(1).max(64), params: GraphExportParams.default({}) }).strict(),
      z.object({ kind: z.literal('model.download'), params: ModelDownloadParams }).strict(),
    ]),
    Job,
  ),
  'job.cancel': route('Cancel a queued or running job', z.object({ id: z.string().min(1).max(64) }).strict(), Job),
}

export const jobEvents = {
  /** Throttled progress of a running job. */
  'job.progress': z.object({ jobId: z.string(), progress: z.number(), stage: z.string(), message: z.string() }),
  /** A job changed status (queued, running, done, failed, cancelled). */
  'job.status': Job,
}
