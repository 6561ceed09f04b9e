import { ApiError, type EnvServerStatus, type envServerRoutes } from '../../../preload/contract'
import type { Services } from '../../app/services'
import { DEFAULT_IDLE_GC_EVERY, startEnvServer, type EnvServer, type StoreMode } from '../../env-server'
import type { HandlerGroup } from './handler-group'

/** One environment server per process, started and stopped from the Policies page. */
export function envServerHandlers(services: Services): HandlerGroup<typeof envServerRoutes> {
  let running: { server: EnvServer; workspaceId: string; store: StoreMode; startedAt: string } | null = null
  // Closing the app closes the server before the workspace database it reads.
  services.onClose(async () => {
    const server = running?.server
    running = null
    await server?.close()
  })

  const status = (): EnvServerStatus =>
    running
      ? {
          running: true,
          url: running.server.url,
          token: running.server.token,
          host: running.server.host,
          port: running.server.port,
          workspaceId: running.workspaceId,
          store: running.store,
          startedAt: running.startedAt,
          counters: running.server.sessions.counters(),
        }
      : { running: false, url: null, token: null, host: null, port: null, workspaceId: null, store: null, startedAt: null, counters: null }

  return {
    'envServer.status': async () => status(),
    'envServer.start': async (input) => {
      if (running) throw new ApiError('CONFLICT', `The environment server already runs at ${running.server.url}: stop it first`)
      const handle = await services.workspaces.handle(input.workspaceId)
      try {
        const server = await startEnvServer({
          raw: handle.raw,
          appVersion: services.version,
          port: input.port,
          host: input.host,
          token: input.token,
          store: { mode: input.store, rate: input.storeRate },
          idleTimeoutMs: input.idleTimeoutSeconds * 1000,
          collectEvery: DEFAULT_IDLE_GC_EVERY,
        })
        running = { server, workspaceId: input.workspaceId, store: input.store, startedAt: new Date().toISOString() }
      } catch (err) {
        const e = err as NodeJS.ErrnoException
        if (e.code === 'EADDRINUSE') throw new ApiError('CONFLICT', `Port ${input.port} is in use: pick another (0 = any free port)`)
        if (e instanceof ApiError) throw e
        throw new ApiError('VALIDATION', e.message)
      }
      return status()
    },
    'envServer.stop': async () => {
      const server = running?.server
      running = null
      await server?.close()
      return status()
    },
  }
}
