/**
 * The environment server's HTTP/JSON transport (Fastify), OpenEnv/Gym-shaped:
 *   POST   /v1/episodes              create (messages + tools or menu)
 *   POST   /v1/episodes/:id/step     one action -> observation, reward, done, info
 *   POST   /v1/episodes/:id/finish   reward, components, per-step credit, metrics
 *   DELETE /v1/episodes/:id          drop without scoring
 *   GET    /v1/health, /v1/environments, /v1/stats, /v1/schema
 * beside OpenEnv's WebSocket /ws and /reset, /step, /state, /schema, /health, /metadata (compat.ts,
 * openenv.ts) and Search-R1's POST /retrieve.
 * Episodes run on worker threads, or inline in this thread while few are open (router.ts); this thread parses, checks and routes.
 * Loopback by default; every request carries the token (`Authorization: Bearer T`), and a host that is not
 * loopback is refused unless a token was given explicitly. `open` (loopback only) lets clients that send
 * no token reach named route groups: 'retrieve' (POST /retrieve: BM25 hits, chunk text and titles of the
 * workspace's corpus) and 'openenv' (/ws and OpenEnv's HTTP routes: episodes, so questions, corpus text in
 * observations, rewards and credit). Everything else (/v1, stored runs) keeps the token. A tokenless
 * request that carries an Origin header (a browser page) is refused. Errors are `{error: {status, message, field, issues}}`;
 * every 4xx names a field (`(body)` for the body as a whole, `id` for the episode in the path).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { STATUS_CODES } from 'node:http'
import websocket from '@fastify/websocket'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import type { z } from 'zod'
import { registerCompatRoutes, WS_MAX_PAYLOAD } from './compat'
import { OpenEnvSessions, resetSchema, schemas } from './openenv'
import { RetrieveBody } from './retrieve'
import { EpisodeRouter, type RouterOptions } from './router'
import { EnvServerError } from './sessions'
import { CreateEpisodeBody, EpisodeId, FinishBody, issuesOf, JsonText, StepBody } from './wire'

export interface EnvServerOptions extends RouterOptions {
  port: number
  /** Default 127.0.0.1. Any other host needs an explicit token. */
  host?: string
  /** Made at random when absent (loopback only). */
  token?: string
  /** Route groups clients may call without the token, on loopback only (see the header). */
  open?: readonly OpenRoutes[]
  /** Messages one /ws session may have waiting before OpenEnv's CAPACITY_REACHED (default WS_MAX_QUEUED). */
  wsMaxQueued?: number
}

export const OPEN_ROUTE_GROUPS = ['retrieve', 'openenv'] as const
export type OpenRoutes = (typeof OPEN_ROUTE_GROUPS)[number]
const OPEN_PATHS: Record<OpenRoutes, (method: string, path: string) => boolean> = {
  retrieve: (method, path) => method === 'POST' && path === '/retrieve',
  openenv: (method, path) => (method === 'GET' && ['/ws', '/state', '/schema', '/health', '/metadata'].includes(path)) || (method === 'POST' && (path === '/reset' || path === '/step')),
}

export interface EnvServer {
  url: string
  host: string
  port: number
  token: string
  /** Routes episodes to the worker threads; counters, idle sweep. */
  sessions: EpisodeRouter
  close(): Promise<void>
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1'])
/** The address as listen() takes it: no brackets around IPv6, no trailing dot of a fully qualified name. */
export const bindAddress = (host: string): string => host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '')
export const isLoopback = (host: string): boolean => LOOPBACK.has(bindAddress(host))
export const MIN_TOKEN_LENGTH = 16

function sameSecret(given: string | undefined, token: Buffer): boolean {
  if (!given) return false
  const a = Buffer.from(given)
  return a.length === token.length && timingSafeEqual(a, token)
}

const hostName = (header: string | undefined): string => {
  const h = (header ?? '').trim().toLowerCase()
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') > 0 ? h.indexOf(']') : undefined)
  return h.replace(/:\d*$/, '')
}

export async function startEnvServer(options: EnvServerOptions): Promise<EnvServer> {
  const { host, loopback, open } = listenPlan(options)
  const token = options.token ?? randomBytes(24).toString('base64url')
  const wsSessions = new OpenEnvSessions(options.wsMaxQueued)
  const sessions = await EpisodeRouter.start(options)
  const refuse = refuser(sessions)
  const app = createApp(sessions, refuse)
  await app.register(websocket, { options: { maxPayload: WS_MAX_PAYLOAD } })
  parseJsonBodies(app)
  guardRequests(app, { loopback, open, tokenBytes: Buffer.from(token), sessions, refuse })
  answerErrors(app, refuse)
  const helpers = replyHelpers(refuse)
  registerEpisodeRoutes(app, sessions, wsSessions, helpers)
  registerCompatRoutes(app, sessions, options.raw, options.appVersion, helpers, wsSessions)
  app.setNotFoundHandler((req, reply) => refuse(reply, 404, `No endpoint ${req.method} ${(req.url.split('?')[0] ?? '').slice(0, 200)}; see GET /v1/health, /v1/environments, POST /v1/episodes`, { field: 'path' }))

  const sweepEvery = Math.max(1000, Math.min(30_000, (options.idleTimeoutMs ?? 600_000) / 4))
  const sweeper = setInterval(() => sessions.sweep(), sweepEvery)
  sweeper.unref()

  try {
    await app.listen({ port: options.port, host })
  } catch (err) {
    clearInterval(sweeper)
    await sessions.close()
    throw listenError(err, host)
  }
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
      await sessions.close()
    },
  }
}

/** The address to bind and the open route groups, refused before anything starts when they are unsafe (see the header). */
function listenPlan(options: EnvServerOptions): { host: string; loopback: boolean; open: OpenRoutes[] } {
  // What passes the loopback check is what is bound: "[::1]" binds ::1, "localhost." binds localhost.
  const host = bindAddress(options.host ?? '127.0.0.1')
  if (host === '') throw new Error('The host is empty: give an address or name to listen on, such as 127.0.0.1')
  const loopback = isLoopback(host)
  if (!loopback && !options.token) throw new Error(`A token is required when the server listens on ${host} (not loopback): pass --token with at least ${MIN_TOKEN_LENGTH} characters`)
  if (options.token !== undefined && options.token.length < MIN_TOKEN_LENGTH) throw new Error(`The token must have at least ${MIN_TOKEN_LENGTH} characters`)
  const open = [...new Set(options.open ?? [])]
  for (const group of open) if (!OPEN_ROUTE_GROUPS.includes(group)) throw new Error(`Unknown open route group "${group}"; known: ${OPEN_ROUTE_GROUPS.join(', ')}`)
  if (open.length > 0 && !loopback) throw new Error(`Routes without a token (--open ${open.join(',')}) are served on loopback only, not on ${host}`)
  return { host, loopback, open }
}

/** A failed listen in the user's words when the host is at fault; anything else as it came. */
function listenError(err: unknown, host: string): unknown {
  const e = err as NodeJS.ErrnoException
  if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN' || e.code === 'EADDRNOTAVAIL') return Object.assign(new Error(`Cannot listen on ${host}: ${e.code === 'EADDRNOTAVAIL' ? 'no such address on this machine' : 'the name does not resolve'} (try 127.0.0.1)`), { code: e.code })
  return err
}

/** Every refusal names a field: the body part at fault, `(body)` for the body as a whole. */
type Refuse = (reply: FastifyReply, status: number, message: string, extra: { field: string; issues?: { field: string; message: string }[] }) => FastifyReply

/** Refusals are counted as errors in /v1/stats. */
function refuser(sessions: EpisodeRouter): Refuse {
  return (reply, status, message, extra) => {
    sessions.countError()
    return reply.code(status).send({ error: { status, message, ...extra } })
  }
}

function createApp(sessions: EpisodeRouter, refuse: Refuse): FastifyInstance {
  return Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT,
    forceCloseConnections: true,
    keepAliveTimeout: 120_000,
    // An over-long path segment (414) or a malformed URL (400), refused in the server's error shape.
    frameworkErrors: (err: Error & { statusCode?: number; code?: string }, _req, reply) =>
      refuse(reply, err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : (err.statusCode ?? 400), err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'URI too long: a path segment passes 100 characters (episode ids are UUIDs)' : `Malformed URL: ${err.message.slice(0, 200)}`, { field: 'path' }),
    // Errors Node's HTTP parser raises before any route (headers over 16 KiB, a broken request line).
    clientErrorHandler: (err: NodeJS.ErrnoException, socket) => {
      if (err.code === 'ECONNRESET' || socket.destroyed) return
      const [status, field, message] = err.code === 'HPE_HEADER_OVERFLOW' ? [431, '(headers)', 'Request headers (or the URL) are too large: the limit is 16 KiB'] : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, '(request)', 'The request took too long to arrive'] : [400, '(request)', `Malformed HTTP request (${err.code ?? err.message})`]
      sessions.countError()
      const body = JSON.stringify({ error: { status, message, field } })
      socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
    },
  })
}

/**
 * JSON bodies: a key that could reach a prototype (__proto__, constructor.prototype) is refused by name.
 * A request whose method carries no body (DELETE /v1/episodes/{id}) may still name the JSON content
 * type with an empty body, as many HTTP clients do by default: that is no body, not a bad one.
 */
function parseJsonBodies(app: FastifyInstance): void {
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (req, text, done) => {
    const body = String(text)
    if (body.trim() === '' && BODILESS.has(req.method)) return done(null, undefined)
    if (body.trim() === '') return done(Object.assign(new Error('empty JSON body'), { statusCode: 400, code: 'FST_ERR_CTP_EMPTY_JSON_BODY' }), undefined)
    let value: unknown
    try {
      value = JSON.parse(body)
    } catch (err) {
      return done(Object.assign(new Error(`Request body is not valid JSON: ${(err as Error).message}`), { statusCode: 400, field: '(body)' }), undefined)
    }
    // Only a text spelling `proto` (in __proto__ or prototype) or a \u escape can hold such a key: skip the walk otherwise.
    const bad = PROTO_SPELLING.test(body) ? prototypeKey(value) : null
    if (bad) return done(Object.assign(new Error(`Request body refused: the key ${bad} could reach an object prototype (__proto__ and constructor.prototype are not accepted)`), { statusCode: 400, field: bad }), undefined)
    done(null, value)
  })
}

interface Guard {
  loopback: boolean
  open: OpenRoutes[]
  tokenBytes: Buffer
  sessions: EpisodeRouter
  refuse: Refuse
}

/**
 * The checks every request passes before its route: the loopback Host, the token (or an open route
 * without an Origin), and the idle clock of the episode it addresses, held until it is answered.
 */
function guardRequests(app: FastifyInstance, { loopback, open, tokenBytes, sessions, refuse }: Guard): void {
  // Callback hooks, not async ones: an async hook costs a promise and its ticks on every request.
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('Cache-Control', 'no-store')
    // On loopback, a Host that is not loopback is a DNS-rebinding attempt from a web page.
    if (loopback && !isLoopback(hostName(req.headers.host))) return void refuse(reply, 403, 'Requests must address the loopback host', { field: 'host' })
    const header = req.headers.authorization
    if (!sameSecret(header?.startsWith('Bearer ') ? header.slice(7) : undefined, tokenBytes)) {
      const path = req.url.split('?')[0] ?? ''
      const openRoute = open.some((g) => OPEN_PATHS[g](req.method, path))
      if (!openRoute) return void refuse(reply, 401, 'Missing or wrong token: send Authorization: Bearer <token> (printed when the server started)', { field: 'authorization' })
      if (req.headers.origin !== undefined) return void refuse(reply, 403, 'Requests without the token are refused from web pages (an Origin header): send Authorization: Bearer <token>', { field: 'origin' })
    }
    // The episode's idle clock stops as soon as its request is seen, however long it then waits.
    const id = EPISODE_PATH.exec(req.url)?.[1]
    if (id) {
      sessions.hold(id)
      held.set(req, id)
    }
    done()
  })
  app.addHook('onResponse', (req, _reply, done) => {
    const id = held.get(req)
    if (id) sessions.release(id)
    done()
  })
}

/** Fastify's request errors as refusals that name a field; anything else is a 500 with its message. */
function answerErrors(app: FastifyInstance, refuse: Refuse): void {
  app.setErrorHandler((err: Error & { statusCode?: number; code?: string; field?: string }, _req, reply) => {
    const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500
    if (status === 500) {
      console.error('env-server error:', err)
      return reply.code(500).send({ error: { status, message: err.message } })
    }
    return refuse(reply, status, requestErrorMessage(err, status), { field: err.field ?? (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 'content-type' : '(body)') })
  })
}

interface ReplyHelpers {
  parse: <S extends z.ZodType>(schema: S, body: unknown, reply: FastifyReply) => z.output<S> | null
  episodeId: (req: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => string | null
  answer: (reply: FastifyReply, work: () => Promise<unknown> | unknown) => Promise<unknown>
  refuse: Refuse
}

/** What every route does with its request: parse the body, check the episode id, answer or refuse (shared with compat.ts). */
function replyHelpers(refuse: Refuse): ReplyHelpers {
  const parse = <S extends z.ZodType>(schema: S, body: unknown, reply: FastifyReply): z.output<S> | null => {
    const result = schema.safeParse(body ?? {})
    if (result.success) return result.data
    const issues = issuesOf(result.error)
    void refuse(reply, 400, `Invalid request: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`, { field: issues[0]?.field ?? '(body)', issues })
    return null
  }

  const episodeId = (req: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply): string | null => {
    if (EpisodeId.safeParse(req.params.id).success) return req.params.id
    void refuse(reply, 404, `No open episode ${req.params.id.slice(0, 80)} (episode ids are UUIDs)`, { field: 'id' })
    return null
  }

  const answer = async (reply: FastifyReply, work: () => Promise<unknown> | unknown) => {
    try {
      const value = await work()
      // Made as JSON text in the lane that ran it: sent as is, not serialised again.
      if (value instanceof JsonText) return reply.type('application/json; charset=utf-8').send(value.text)
      return reply.send(value)
    } catch (err) {
      if (err instanceof EnvServerError) return refuse(reply, err.status, err.message, { field: err.field ?? '(body)' })
      throw err
    }
  }
  return { parse, episodeId, answer, refuse }
}

/** The /v1 routes and Search-R1's /retrieve. */
function registerEpisodeRoutes(app: FastifyInstance, sessions: EpisodeRouter, wsSessions: OpenEnvSessions, { parse, episodeId, answer }: ReplyHelpers): void {
  app.get('/v1/health', async () => ({ ok: true, open_episodes: sessions.counters().open, answerer: sessions.answererName, workers: sessions.workers, inline_below: sessions.inlineBelow }))
  app.get('/v1/environments', async () => ({ environments: sessions.environments() }))
  app.get('/v1/stats', async () => ({ ...sessions.counters(), ws: wsSessions.stats() }))
  app.get('/v1/schema', async () => ({ ...schemas(), reset: resetSchema() }))

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
    if (id) return answer(reply, async () => (await sessions.remove(id), { deleted: true }))
  })
  app.post('/retrieve', async (req, reply) => {
    const body = parse(RetrieveBody, req.body, reply)
    if (body) return answer(reply, () => sessions.retrieve(body))
  })
}

/** Episode requests by path: /v1/episodes/<id>[/step|/finish]. */
const EPISODE_PATH = /^\/v1\/episodes\/([^/?]+)/
/** Requests that hold an episode's idle clock, until answered. */
const held = new WeakMap<FastifyRequest, string>()

const BODY_LIMIT = 1024 * 1024
/** Text that could spell a key reaching a prototype: `proto` (__proto__, prototype) or any \u escape (which could spell either). */
const PROTO_SPELLING = /proto|\\u/
/** Methods whose requests carry nothing in their body here: an empty one with a JSON content type is accepted. */
const BODILESS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS'])

/** Fastify's own request errors in the server's words. */
function requestErrorMessage(err: Error & { code?: string }, status: number): string {
  if (status === 413) return `Request body too large (${err.message}); the limit is 1 MiB`
  if (err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return 'The content type is application/json but the body is empty: send a JSON body, or no content-type header'
  return err.message
}

/** The dotted path of the first key that could reach a prototype, or null (iterative: a body may nest deeply). */
function prototypeKey(root: unknown): string | null {
  const stack: Array<[unknown, string]> = [[root, '']]
  while (stack.length > 0) {
    const [value, path] = stack.pop()!
    if (value === null || typeof value !== 'object') continue
    for (const key of Object.keys(value)) {
      const here = path ? `${path}.${key}` : key
      const child = (value as Record<string, unknown>)[key]
      if (key === '__proto__') return here
      if (key === 'constructor' && child !== null && typeof child === 'object' && Object.hasOwn(child, 'prototype')) return `${here}.prototype`
      stack.push([child, here])
    }
  }
  return null
}
