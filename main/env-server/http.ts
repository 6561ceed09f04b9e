/**
 * The environment server's HTTP/JSON transport (Fastify), OpenEnv/Gym-shaped:
 *   POST   /v1/episodes              create (messages + tools or menu)
 *   POST   /v1/episodes/:id/step     one action -> observation, reward, done, info
 *   POST   /v1/episodes/:id/finish   reward, components, per-step credit, metrics
 *   DELETE /v1/episodes/:id          drop without scoring
 *   GET    /v1/health, /v1/environments, /v1/stats
 * Loopback by default; every request carries the token (`Authorization: Bearer T`), and a host that is not
 * loopback is refused unless a token was given explicitly. Errors are `{error: {status, message, field, issues}}`.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify'
import type { z } from 'zod'
import { EnvServerError, EpisodeSessions, type SessionOptions } from './sessions'
import { CreateEpisodeBody, EpisodeId, FinishBody, issuesOf, StepBody } from './wire'

export interface EnvServerOptions extends SessionOptions {
  port: number
  /** Default 127.0.0.1. Any other host needs an explicit token. */
  host?: string
  /** Made at random when absent (loopback only). */
  token?: string
}

export interface EnvServer {
  url: string
  host: string
  port: number
  token: string
  sessions: EpisodeSessions
  close(): Promise<void>
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1'])
export const isLoopback = (host: string): boolean => LOOPBACK.has(host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, ''))
export const MIN_TOKEN_LENGTH = 16

function sameSecret(given: string | undefined, token: string): boolean {
  if (!given) return false
  const a = Buffer.from(given)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}

const hostName = (header: string | undefined): string => {
  const h = (header ?? '').trim().toLowerCase()
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') > 0 ? h.indexOf(']') : undefined)
  return h.replace(/:\d*$/, '')
}

export async function startEnvServer(options: EnvServerOptions): Promise<EnvServer> {
  const host = options.host ?? '127.0.0.1'
  const loopback = isLoopback(host)
  if (!loopback && !options.token) throw new Error(`A token is required when the server listens on ${host} (not loopback): pass --token with at least ${MIN_TOKEN_LENGTH} characters`)
  if (options.token !== undefined && options.token.length < MIN_TOKEN_LENGTH) throw new Error(`The token must have at least ${MIN_TOKEN_LENGTH} characters`)
  const token = options.token ?? randomBytes(24).toString('base64url')
  const sessions = new EpisodeSessions(options)
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024, forceCloseConnections: true, keepAliveTimeout: 120_000 })

  const refuse = (reply: FastifyReply, status: number, message: string, extra: { field?: string; issues?: { field: string; message: string }[] } = {}) => {
    sessions.countError()
    return reply.code(status).send({ error: { status, message, ...extra } })
  }

  app.addHook('onRequest', async (req, reply) => {
    reply.header('Cache-Control', 'no-store')
    // On loopback, a Host that is not loopback is a DNS-rebinding attempt from a web page.
    if (loopback && !isLoopback(hostName(req.headers.host))) return refuse(reply, 403, 'Requests must address the loopback host')
    const header = req.headers.authorization
    if (!sameSecret(header?.startsWith('Bearer ') ? header.slice(7) : undefined, token)) return refuse(reply, 401, 'Missing or wrong token: send Authorization: Bearer <token> (printed when the server started)')
  })

  app.setErrorHandler((err: Error & { statusCode?: number }, _req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500
    if (status === 500) console.error('env-server error:', err)
    return refuse(reply, status, status === 400 && /JSON/i.test(err.message) ? `Request body is not valid JSON: ${err.message}` : err.message)
  })

  const parse = <S extends z.ZodType>(schema: S, body: unknown, reply: FastifyReply): z.output<S> | null => {
    const result = schema.safeParse(body ?? {})
    if (result.success) return result.data
    const issues = issuesOf(result.error)
    void refuse(reply, 400, `Invalid request: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`, { field: issues[0]?.field, issues })
    return null
  }

  const episodeId = (req: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply): string | null => {
    if (EpisodeId.safeParse(req.params.id).success) return req.params.id
    void refuse(reply, 404, `No open episode ${req.params.id.slice(0, 80)} (episode ids are UUIDs)`, { field: 'id' })
    return null
  }

  const answer = async (reply: FastifyReply, work: () => Promise<unknown> | unknown) => {
    try {
      return reply.send(await work())
    } catch (err) {
      if (err instanceof EnvServerError) return refuse(reply, err.status, err.message, err.field ? { field: err.field } : {})
      throw err
    }
  }

  app.get('/v1/health', async () => ({ ok: true, open_episodes: sessions.counters().open, answerer: sessions.answererName }))
  app.get('/v1/environments', async () => ({ environments: sessions.environments() }))
  app.get('/v1/stats', async () => sessions.counters())

  app.post('/v1/episodes', async (req, reply) => {
    const body = parse(CreateEpisodeBody, req.body, reply)
    if (body) return answer(reply, () => sessions.create(body))
  })
  app.post<{ Params: { id: string } }>('/v1/episodes/:id/step', async (req, reply) => {
    const id = episodeId(req, reply)
    const body = id && parse(StepBody, req.body, reply)
    if (id && body) return answer(reply, () => sessions.step(id, body))
  })
  app.post<{ Params: { id: string } }>('/v1/episodes/:id/finish', async (req, reply) => {
    const id = episodeId(req, reply)
    const body = id && parse(FinishBody, req.body, reply)
    if (id && body) return answer(reply, () => sessions.finish(id, body))
  })
  app.delete<{ Params: { id: string } }>('/v1/episodes/:id', async (req, reply) => {
    const id = episodeId(req, reply)
    if (id) return answer(reply, () => (sessions.remove(id), { deleted: true }))
  })
  app.setNotFoundHandler((req, reply) => refuse(reply, 404, `No endpoint ${req.method} ${req.url.split('?')[0]}; see GET /v1/health, /v1/environments, POST /v1/episodes`))

  const sweepEvery = Math.max(1000, Math.min(30_000, (options.idleTimeoutMs ?? 600_000) / 4))
  const sweeper = setInterval(() => sessions.sweep(), sweepEvery)
  sweeper.unref()

  await app.listen({ port: options.port, host })
  const address = app.server.address()
  const port = address && typeof address === 'object' ? address.port : options.port
  const urlHost = host.includes(':') ? `[${host}]` : host
  return {
    url: `http://${urlHost}:${port}`,
    host,
    port,
    token,
    sessions,
    close: async () => {
      clearInterval(sweeper)
      await app.close()
      sessions.close()
    },
  }
}
