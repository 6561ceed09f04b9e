import { z } from 'zod'
import { route } from './define'

/** The environment server's live counters (main/env-server). */
export const EnvServerCounters = z.object({
  open: z.number(),
  created: z.number(),
  finished: z.number(),
  deleted: z.number(),
  expired: z.number(),
  steps: z.number(),
  errors: z.number(),
  stepsPerSecond: z.number(),
  stored: z.number(),
  storeRepeats: z.number(),
})

export const EnvServerStatus = z.object({
  running: z.boolean(),
  /** Present while running. */
  url: z.string().nullable(),
  token: z.string().nullable(),
  host: z.string().nullable(),
  port: z.number().nullable(),
  workspaceId: z.string().nullable(),
  store: z.enum(['off', 'sampled', 'all']).nullable(),
  startedAt: z.string().nullable(),
  counters: EnvServerCounters.nullable(),
})
export type EnvServerStatus = z.infer<typeof EnvServerStatus>

export const envServerRoutes = {
  'envServer.status': route('Whether the environment server runs in this process, its URL, token and live counters', z.object({}).strict(), EnvServerStatus),
  'envServer.start': route(
    "Serve a workspace's environments to an external trainer over HTTP/JSON (loopback unless a token is given)",
    z
      .object({
        workspaceId: z.string().min(1).max(64),
        port: z.number().int().min(0).max(65_535).default(8765),
        host: z.string().trim().min(1).max(255).default('127.0.0.1'),
        /** Made at random when absent; required (16+ characters) for a host that is not loopback. */
        token: z.string().min(16).max(256).optional(),
        /** Keep trainer episodes as evaluation runs: off, a sample, or all. */
        store: z.enum(['off', 'sampled', 'all']).default('off'),
        storeRate: z.number().min(0).max(1).default(0.1),
        idleTimeoutSeconds: z.number().int().min(1).max(86_400).default(600),
      })
      .strict(),
    EnvServerStatus,
  ),
  'envServer.stop': route('Stop the environment server (open episodes are dropped; stored runs are closed)', z.object({}).strict(), EnvServerStatus),
}
