import { randomBytes, timingSafeEqual } from 'node:crypto'
import { existsSync } from 'node:fs'
import fastifyStatic from '@fastify/static'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import { channels, type ApiErrorCode, type Envelope } from '../../preload/contract'
import { dispatch, type Handlers } from '../api/dispatch'
import type { EventBus } from '../events/bus'
import { CONTENT_SECURITY_POLICY, LOOPBACK_HOSTS } from './security'

export interface BrowserServerOptions {
  handlers: Handlers
  events: EventBus
  /** Built renderer folder (out/renderer). */
  rendererDir: string
  port: number
  host?: string
  /** Per-launch secret; a random one is made when absent. */
  token?: string
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

/** Browser mode: the built renderer and the API on loopback, every API call gated by the launch token. */
export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const host = options.host ?? '127.0.0.1'
  if (!LOOPBACK_HOSTS.has(host)) throw new Error(`Browser mode listens on loopback only (127.0.0.1, ::1, localhost), not ${host}`)
  if (!existsSync(options.rendererDir)) throw new Error(`No built renderer at ${options.rendererDir}: run \`npm run build\` first`)
  const token = options.token ?? randomBytes(24).toString('base64url')
  const app: FastifyInstance = Fastify({ logger: false, bodyLimit: 4 * 1024 * 1024, forceCloseConnections: true })
  let port = options.port

  // Reject requests whose Host is not loopback (DNS-rebinding defence), and set security headers everywhere.
  app.addHook('onRequest', async (req, reply) => {
    const hostname = (req.headers.host ?? '').replace(/:\d+$/, '').replace(/^\[|\]$/g, '')
    if (!LOOPBACK_HOSTS.has(hostname)) {
      return reply.code(403).send(fail('UNAUTHORIZED', 'Requests must address the loopback host'))
    }
    reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY)
    reply.header('X-Content-Type-Options', 'nosniff')
    reply.header('Referrer-Policy', 'no-referrer')
    reply.header('Cross-Origin-Opener-Policy', 'same-origin')
  })

  app.setErrorHandler((err: Error & { statusCode?: number }, _req, reply) => {
    const status = err.statusCode ?? 500
    const code: ApiErrorCode = status === 413 || (status >= 400 && status < 500) ? 'VALIDATION' : 'INTERNAL'
    const message = err.message.includes('JSON') ? `Request body is not valid JSON: ${err.message}` : err.message
    void reply.code(status).send(fail(code, message))
  })

  const authorised = (req: FastifyRequest): boolean => {
    const header = req.headers.authorization
    const bearer = header?.startsWith('Bearer ') ? header.slice(7) : undefined
    const query = (req.query as Record<string, string | undefined>).token
    return sameSecret(bearer ?? query, token)
  }

  app.post<{ Params: { route: string } }>(`${channels.httpCall}:route`, async (req, reply: FastifyReply) => {
    if (!authorised(req)) return reply.code(401).send(fail('UNAUTHORIZED', 'Missing or wrong token: open the URL printed by `npm run serve`'))
    const envelope = await dispatch(options.handlers, req.params.route, req.body)
    return reply.code(envelope.ok ? 200 : STATUS[envelope.error.code]).send(envelope)
  })

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
    const unsubscribe = options.events.subscribe((name, payload) => {
      // A slow client skips progress ticks rather than buffering them; status events always go out.
      if (name === 'job.progress' && res.writableNeedDrain) return
      res.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`)
    })
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), 15_000)
    req.raw.on('close', () => {
      clearInterval(heartbeat)
      unsubscribe()
    })
  })

  await app.register(fastifyStatic, { root: options.rendererDir, index: ['index.html'], wildcard: false })
  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api/')) return reply.code(404).send(fail('NOT_FOUND', `No API endpoint ${req.method} ${req.url.split('?')[0]}`))
    return reply.code(404).type('text/plain').send('Not found')
  })

  await app.listen({ port, host })
  const address = app.server.address()
  if (address && typeof address === 'object') port = address.port
  const urlHost = host === '::1' ? '[::1]' : host
  return {
    url: `http://${urlHost}:${port}/?token=${token}`,
    token,
    port,
    close: () => app.close(),
  }
}
