import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createReadStream, existsSync } from 'node:fs'
import fastifyStatic from '@fastify/static'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import { channels, type ApiErrorCode, type Envelope } from '../../preload/contract'
import { dispatch, type Handlers } from '../api/dispatch'
import type { EventBus } from '../events/bus'
import { EventReplay, type NumberedEvent } from '../events/replay'
import { contentDisposition, downloadableFile, DOWNLOAD_PATH, exportDownloads, isDownloadId, zippedFolder, type DownloadSource } from './downloads'
import { CONTENT_SECURITY_POLICY, isLoopbackHost } from './security'

export interface BrowserServerOptions {
  handlers: Handlers
  events: EventBus
  /** Built renderer folder (out/renderer). */
  rendererDir: string
  port: number
  host?: string
  /** Per-launch secret; a random one is made when absent. */
  token?: string
  /**
   * Finished files the browser may download (`GET /api/download/<job id>`): by default the finished
   * `graph.export` jobs, looked up through the handlers and confined to the data folder.
   */
  downloads?: DownloadSource
}

export interface BrowserServer {
  url: string
  token: string
  port: number
  close(): Promise<void>
}

const STATUS: Record<ApiErrorCode, number> = {
  VALIDATION: 400,
  UNAUTHORIZED: 401,
  NOT_FOUND: 404,
  CONFLICT: 409,
  UNSUPPORTED: 501,
  INTERNAL: 500,
}

const fail = (code: ApiErrorCode, message: string): Envelope<never> => ({ ok: false, error: { code, message } })

function sameSecret(given: string | undefined, token: string): boolean {
  if (!given) return false
  const a = Buffer.from(given)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** Body limit of questions.import: 64 MiB of file text, each character escaped at most once, plus the envelope. */
const QUESTION_IMPORT_BODY_LIMIT = 2 * 64 * 1024 * 1024 + 1024 * 1024

/** Whether a request carries the launch token (a header, or `?token=` where a header cannot be sent). */
type Authorised = (req: FastifyRequest) => boolean

/** Browser mode: the built renderer and the API on loopback, every API call gated by the launch token. */
export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const host = options.host ?? '127.0.0.1'
  if (!isLoopbackHost(host)) throw new Error(`Browser mode listens on loopback only (127.0.0.1, ::1, localhost), not ${host}`)
  if (!existsSync(options.rendererDir)) throw new Error(`No built renderer at ${options.rendererDir}: run \`npm run build\` first`)
  const token = options.token ?? randomBytes(24).toString('base64url')
  const app = createApp()
  let port = options.port
  guardHosts(app)
  parseJsonBodies(app)
  answerErrors(app)

  const authorised: Authorised = (req) => {
    const header = req.headers.authorization
    const bearer = header?.startsWith('Bearer ') ? header.slice(7) : undefined
    const query = (req.query as Record<string, string | undefined>).token
    return sameSecret(bearer ?? query, token)
  }
  registerApiRoutes(app, options.handlers, authorised)
  const downloads = options.downloads ?? exportDownloads(options.handlers, options.events)
  registerDownloadRoute(app, downloads, authorised)
  const replay = new EventReplay(options.events)
  registerEventStream(app, replay, authorised)

  await app.register(fastifyStatic, { root: options.rendererDir, index: ['index.html'], wildcard: false })
  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api/')) return reply.code(404).send(fail('NOT_FOUND', `No API endpoint ${req.method} ${req.url.split('?')[0]}`))
    return reply.code(404).type('text/plain').send('Not found')
  })

  await app.listen({ port, host })
  downloads.start?.()
  const address = app.server.address()
  if (address && typeof address === 'object') port = address.port
  const urlHost = host === '::1' ? '[::1]' : host
  return {
    url: `http://${urlHost}:${port}/?token=${token}`,
    token,
    port,
    close: async () => {
      downloads.stop?.()
      replay.close()
      await app.close()
    },
  }
}

function createApp(): FastifyInstance {
  return Fastify({
    logger: false,
    bodyLimit: 4 * 1024 * 1024,
    forceCloseConnections: true,
    // URLs the router refuses before any hook (a malformed escape, an over-long id) still get the headers and an envelope.
    frameworkErrors: (err, req, res) => {
      const reply = res as unknown as FastifyReply
      securityHeaders(reply, req.url)
      void reply.code(err.statusCode ?? 400).send(fail('VALIDATION', err.message))
    },
  })
}

/**
 * Security headers everywhere, API answers never cached (they carry workspace data), and requests
 * whose Host is not loopback refused (DNS-rebinding defence; host names are case-insensitive).
 */
function guardHosts(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => {
    securityHeaders(reply, req.url)
    if (!isLoopbackHost(hostOf(req.headers.host))) {
      return reply.code(403).send(fail('UNAUTHORIZED', 'Requests must address the loopback host'))
    }
  })
}

/**
 * JSON bodies are parsed here, so that the refusals say what was refused: the dispatcher names a
 * prototype key (`__proto__`, `constructor`, `prototype`) and where it was, instead of Fastify's
 * "Body is not valid JSON" for a body that is valid JSON.
 */
function parseJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json'])
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    // A leading byte-order mark is allowed, as Fastify's own parser allows it.
    const text = (typeof body === 'string' ? body : body.toString('utf8')).replace(/^\uFEFF/, '')
    if (text.trim() === '') return done(badRequest('Request body is empty: send a JSON object ({} when the route takes no input)'), undefined)
    try {
      done(null, JSON.parse(text))
    } catch (err) {
      done(badRequest(`Request body is not valid JSON: ${(err as Error).message}`), undefined)
    }
  })
}

/** Fastify's own errors (a body too large, a bad content type) as envelopes. */
function answerErrors(app: FastifyInstance): void {
  app.setErrorHandler((err: Error & { statusCode?: number }, _req, reply) => {
    const status = err.statusCode ?? 500
    const code: ApiErrorCode = status >= 400 && status < 500 ? 'VALIDATION' : 'INTERNAL'
    if (status >= 500) console.error('browser-mode server error:', err)
    void reply.code(status).send(fail(code, err.message))
  })
}

/** The API: one POST route per contract route, through the validating dispatcher. */
function registerApiRoutes(app: FastifyInstance, handlers: Handlers, authorised: Authorised): void {
  const call = async (route: string, req: FastifyRequest, reply: FastifyReply) => {
    if (!authorised(req)) return reply.code(401).send(fail('UNAUTHORIZED', 'Missing or wrong token: open the URL printed by `npm run serve`'))
    const envelope = await dispatch(handlers, route, req.body)
    return reply.code(envelope.ok ? 200 : STATUS[envelope.error.code]).send(envelope)
  }
  app.post<{ Params: { route: string } }>(`${channels.httpCall}:route`, (req, reply) => call(req.params.route, req, reply))
  // A question file may hold up to the contract's 64 MiB; as a JSON string its quotes and line breaks
  // are escaped, so the body of this one route may be up to twice that (and a little more).
  app.post(`${channels.httpCall}questions.import`, { bodyLimit: QUESTION_IMPORT_BODY_LIMIT }, (req, reply) => call('questions.import', req, reply))
}

/**
 * Finished exports, downloaded by the browser (an <a download> or location change cannot send a
 * header, so the token may come as ?token=). The id is the job's; the file must be a regular file
 * inside the data folder.
 */
function registerDownloadRoute(app: FastifyInstance, downloads: DownloadSource, authorised: Authorised): void {
  app.get<{ Params: { id: string } }>(`${DOWNLOAD_PATH}:id`, async (req, reply) => {
    if (!authorised(req)) return reply.code(401).send(fail('UNAUTHORIZED', 'Missing or wrong token'))
    if (!isDownloadId(req.params.id)) return reply.code(404).send(fail('NOT_FOUND', 'No such download'))
    const found = await downloads.find(req.params.id)
    if (!found) return reply.code(404).send(fail('NOT_FOUND', `Nothing to download for ${req.params.id}: only a finished export can be downloaded`))
    const file = downloadableFile(found.file, await downloads.roots())
    // A folder export (one file per split) goes out as a ZIP of its files.
    const zipped = file ? null : await zippedFolder(found.file, await downloads.roots())
    if (zipped) {
      reply.header('Content-Type', 'application/zip')
      reply.header('Content-Disposition', contentDisposition(zipped.name))
      return reply.send(zipped.bytes)
    }
    if (!file) return reply.code(404).send(fail('NOT_FOUND', `The file of ${req.params.id} is gone or outside the data folder`))
    reply.header('Content-Type', found.contentType)
    reply.header('Content-Disposition', contentDisposition(found.name))
    reply.header('Content-Length', String(file.size))
    return reply.send(createReadStream(file.path))
  })
}

/** One event in the stream's wire format; a numbered one carries its id, which EventSource sends back on reconnect. */
const sse = (e: NumberedEvent): string => `${e.id === null ? '' : `id: ${e.id}\n`}event: ${e.name}\ndata: ${JSON.stringify(e.payload)}\n\n`

/** The Last-Event-ID a reconnecting EventSource sends, or null (a first connection, or not a number). */
function lastEventId(req: FastifyRequest): number | null {
  const header = req.headers['last-event-id']
  const id = typeof header === 'string' && /^\d+$/.test(header.trim()) ? Number(header.trim()) : NaN
  return Number.isSafeInteger(id) ? id : null
}

/**
 * Contract events as server-sent events, for as long as the page keeps the stream open. A page that
 * reconnects gets the events it missed first; where some are no longer kept it is told to reload
 * (`event: stream.resync`), since its state can no longer be brought up to date event by event.
 */
function registerEventStream(app: FastifyInstance, replay: EventReplay, authorised: Authorised): void {
  app.get(channels.httpEvents, (req, reply) => {
    if (!authorised(req)) return reply.code(401).send(fail('UNAUTHORIZED', 'Missing or wrong token'))
    reply.hijack()
    const res = reply.raw
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    })
    res.write(': connected\n\n')
    // Replayed and subscribed in one synchronous step: no event can fall between the two.
    const last = lastEventId(req)
    const missed = last === null ? [] : replay.since(last)
    if (missed === null) res.write(`event: ${channels.httpResync}\ndata: {}\n\n`)
    else for (const e of missed) res.write(sse(e))
    const unsubscribe = replay.subscribe((e) => {
      // A slow client skips progress ticks rather than buffering them; status events always go out.
      if (e.id === null && res.writableNeedDrain) return
      res.write(sse(e))
    })
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), 15_000)
    req.raw.on('close', () => {
      clearInterval(heartbeat)
      unsubscribe()
    })
  })
}

function securityHeaders(reply: FastifyReply, url: string): void {
  reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY)
  reply.header('X-Content-Type-Options', 'nosniff')
  reply.header('Referrer-Policy', 'no-referrer')
  reply.header('Cross-Origin-Opener-Policy', 'same-origin')
  if (url.startsWith('/api/')) reply.header('Cache-Control', 'no-store')
}

/** The host name of a Host header, lower-cased, without port or IPv6 brackets. */
export function hostOf(header: string | undefined): string {
  const h = (header ?? '').trim().toLowerCase()
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') > 0 ? h.indexOf(']') : undefined)
  return h.replace(/:\d*$/, '')
}

const badRequest = (message: string): Error & { statusCode: number } => Object.assign(new Error(message), { statusCode: 400 })
