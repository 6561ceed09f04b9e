/**
 * OpenEnv's routes beside /v1 (the protocol, and where it differs, in openenv.ts):
 *   GET  /ws (WebSocket)                                 OpenEnv's session protocol: reset, step, state, close
 *   POST /reset  {seed?, episode_id?, + create fields}   -> {observation: <the create answer>, reward: null, done: false}
 *   POST /step   {action, timeout_s?, request_id?, episode_id, answer?} -> {observation, reward, done}
 *   GET  /state?episode_id=...                           -> {episode_id, step_count, environment}
 *   GET  /schema                                         -> {action, observation, state} (JSON Schemas)
 *   GET  /health                                         -> {status: "healthy"}
 *   GET  /metadata                                       -> {name, description, version, documentation_url}
 * An /reset `episode_id` is the client's name for the episode: the reset's observation answers with it
 * (the server's id beside it as `server_episode_id`), and /step and /state accept it as well as the
 * server's id. A scored episode's /state stays readable (`done: true`) for the server's idle timeout;
 * its name may then be given to a new /reset (at most MAX_ALIASES names are kept, the oldest dropped first).
 */
import type SQLite from 'better-sqlite3'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { z } from 'zod'
import { environmentNames } from '../harness'
import { createBodyOf, OpenEnvError, OpenEnvSession, OpenEnvStep, resetAnswer, schemas, stepAnswer, stepBodyOf, type OpenEnvSessions } from './openenv'
import { defaultQuestionOf } from './questions'
import type { EpisodeRouter } from './router'
import { CreatedReply, EpisodeId } from './wire'

interface Helpers {
  parse<S extends z.ZodType>(schema: S, body: unknown, reply: FastifyReply): z.output<S> | null
  answer(reply: FastifyReply, work: () => Promise<unknown> | unknown): Promise<unknown>
  refuse(reply: FastifyReply, status: number, message: string, extra: { field: string }): unknown
}

const MAX_ALIASES = 8192
/** Largest WebSocket message accepted (as the HTTP body limit). */
export const WS_MAX_PAYLOAD = 1024 * 1024

/** Registers OpenEnv's routes; `wsSessions` keeps the /ws sessions (their queue bound, and counts for /v1/stats). */
export function registerCompatRoutes(app: FastifyInstance, router: EpisodeRouter, raw: SQLite.Database, appVersion: string, { parse, answer, refuse }: Helpers, wsSessions: OpenEnvSessions): void {
  const defaultQuestion = defaultQuestionOf(raw)
  /** Client episode names -> server ids, insertion-ordered (oldest first). */
  const aliases = new Map<string, string>()
  const resolve = (name: string): string => {
    const id = aliases.get(name) ?? name
    if (!EpisodeId.safeParse(id).success) throw new OpenEnvError(404, `No open episode ${name.slice(0, 80)}: give the episode_id /reset returned (or the one you gave /reset)`, 'episode_id', 'EXECUTION_ERROR')
    return id
  }

  app.post('/reset', async (req, reply) =>
    answer(reply, async () => {
      const { body, clientId } = createBodyOf(req.body, '', defaultQuestion)
      const previous = clientId === null ? undefined : aliases.get(clientId)
      if (previous !== undefined && router.isOpen(previous)) throw new OpenEnvError(409, `episode_id "${clientId!.slice(0, 80)}" names an open episode already: finish it or choose another`, 'episode_id', 'VALIDATION_ERROR')
      const created = await router.create(body)
      if (clientId !== null) {
        // The name now means the new episode: the one it named before (scored) is forgotten.
        if (previous !== undefined) router.forget(previous)
        aliases.delete(clientId)
        if (aliases.size >= MAX_ALIASES) aliases.delete(aliases.keys().next().value!)
        aliases.set(clientId, created.parse(CreatedReply).episode_id)
      }
      return resetAnswer(created, clientId)
    }),
  )

  app.post('/step', async (req, reply) => {
    const outer = parse(OpenEnvStep, req.body, reply)
    if (!outer) return
    return answer(reply, async () => {
      const { step, answer: inAction } = stepBodyOf(outer.action, 'action')
      const id = resolve(outer.episode_id)
      const out = await stepAnswer(router, id, step, outer.answer ?? inAction)
      // Answered under the name the client used; a scored episode's name stays readable at /state.
      return { ...out, observation: { ...out.observation, episode_id: outer.episode_id } }
    })
  })

  app.get<{ Querystring: { episode_id?: string } }>('/state', async (req, reply) => {
    const name = req.query.episode_id
    if (name === undefined || name === '') return refuse(reply, 400, 'GET /state needs ?episode_id=<the id /reset returned, or the one you gave it> (OpenEnv\'s HTTP routes are stateless; /ws keeps a session)', { field: 'episode_id' })
    return answer(reply, () => ({ ...router.state(resolve(name)), ...(aliases.has(name) ? { episode_id: name, server_episode_id: aliases.get(name) } : {}) }))
  })

  app.get('/schema', async () => schemas())
  app.get('/health', async () => ({ status: 'healthy' }))
  app.get('/metadata', async () => ({
    name: 'harness-lab',
    description: `Harness Lab's search-agent environments over one workspace (${environmentNames().join(', ')}): reset opens an episode (environment, question key, seed), step takes {menu_id | tool_call | text}, the ending step carries the reward and per-step credit. GET /v1/environments lists them with their options.`,
    version: appVersion,
    documentation_url: null,
  }))

  app.get('/ws', { websocket: true }, (socket) => {
    const session = new OpenEnvSession(router, defaultQuestion, wsSessions)
    socket.on('message', (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
      if (isBinary) {
        socket.send(JSON.stringify({ type: 'error', data: { message: 'Send text frames (JSON messages)', code: 'INVALID_JSON' } }))
        return
      }
      const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8')
      void session.handle(text).then((out) => {
        if (out === null) {
          if (socket.readyState === socket.OPEN) socket.close(1000, 'closed by the client')
        } else if (socket.readyState === socket.OPEN) socket.send(out)
      })
    })
    // A dropped socket drops its session's waiting messages with it (they are never handled).
    socket.on('close', () => void session.close())
    socket.on('error', () => void session.close())
  })
}
