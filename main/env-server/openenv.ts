/**
 * OpenEnv's protocol over the environment server's episodes, as OpenEnv's current server defines it
 * (meta-pytorch/OpenEnv, src/openenv/core/env_server/{http_server,types}.py, read 2026-12):
 *
 *   WebSocket /ws: one connection is one session holding at most one episode. Client messages
 *     {"type": "reset", "data": {seed?, episode_id?, ...}}  -> {"type": "observation", "data": {observation, reward: null, done}}
 *     {"type": "step",  "data": <action>}                   -> {"type": "observation", "data": {observation, reward, done}}
 *     {"type": "state"}                                     -> {"type": "state", "data": {episode_id, step_count, ...}}
 *     {"type": "close"}                                     -> the connection closes (an open episode is dropped unscored)
 *   and any failure -> {"type": "error", "data": {message, code}} with OpenEnv's codes (INVALID_JSON,
 *   UNKNOWN_TYPE, VALIDATION_ERROR, EXECUTION_ERROR, CAPACITY_REACHED, SESSION_ERROR); the connection stays open.
 *   OpenEnv's server reads a session's messages one at a time and answers CAPACITY_REACHED (with
 *   active_sessions, max_sessions) when it has no room for a session; here a session holds at most
 *   WS_MAX_QUEUED waiting messages and answers CAPACITY_REACHED (with queued, max_queued) past them.
 *   HTTP: POST /reset {seed?, episode_id?, ...} and POST /step {action, timeout_s?, request_id?, ...}
 *   (extra fields allowed, as OpenEnv's request models allow them), GET /state, /schema
 *   ({action, observation, state}), /health ({status: "healthy"}), /metadata.
 *
 * What differs, and why: OpenEnv's HTTP routes build a fresh environment per request (stateless), which
 * cannot play a multi-step episode; here /reset opens an episode and /step names it with `episode_id`
 * (the server's id from the reset observation, or the client's own `episode_id` given to /reset). The
 * reset data carries this server's question key and options as extra fields (environment, question_id |
 * set + split? + index, config, group_id, reward, credit); without a question key the question is
 * number `seed` (0 when absent) of the workspace's first question set, counted round. The action is
 * {menu_id | tool_call | text} (+ OpenEnv's `metadata`, ignored, and `answer`, the trainer's final answer
 * scored when the step ends the episode). OpenEnv has no finish call: the step that ends the episode
 * scores it, its reward is the outcome reward and `observation.result` is what finish returns. A scored
 * episode's state stays readable (`done: true`) until the session's next reset (HTTP: its name's next
 * /reset) or the server's idle timeout; a client's `episode_id` is the name every answer uses.
 */
import { z } from 'zod'
import type { EpisodeRouter } from './router'
import { QuestionLookupError } from './questions'
import { EnvServerError } from './sessions'
import { CreatedReply, CreateEpisodeBody, issuesOf, JsonText, StepBody } from './wire'

/** The fields of a step's reply that the OpenEnv answer reads. */
const StepReply = z.looseObject({ observation: z.string(), done: z.boolean(), reward: z.number(), info: z.unknown(), menu: z.unknown().optional() })

/** OpenEnv's reset request: seed and episode_id, plus this server's create fields (without the need for a question key). */
export const OpenEnvReset = z.looseObject({
  seed: z.number().int().min(0).max(2 ** 31 - 1).nullish(),
  episode_id: z.string().min(1).max(255).nullish(),
})

/** OpenEnv's step request: the action, and its optional timeout and request id; `episode_id` names the episode here. */
export const OpenEnvStep = z.strictObject({
  action: z.record(z.string(), z.unknown()),
  timeout_s: z.number().positive().max(86_400).nullish(),
  request_id: z.string().max(255).nullish(),
  episode_id: z.string().min(1).max(255),
  /** The trainer's final answer, scored when this step ends the episode (also accepted inside the action). */
  answer: z.string().max(10_000).optional(),
})

/** The action as OpenEnv clients send it: this server's step body, plus OpenEnv's `metadata` (ignored) and the final `answer`. */
const OpenEnvAction = z.looseObject({ metadata: z.record(z.string(), z.unknown()).optional(), answer: z.string().max(10_000).optional() })

export type OpenEnvErrorCode = 'INVALID_JSON' | 'UNKNOWN_TYPE' | 'VALIDATION_ERROR' | 'EXECUTION_ERROR' | 'CAPACITY_REACHED' | 'SESSION_ERROR'

/** A refusal in OpenEnv's terms: its error code, the HTTP status and the field it is about. */
export class OpenEnvError extends EnvServerError {
  constructor(status: number, message: string, field: string, readonly code: OpenEnvErrorCode) {
    super(status, message, field)
    this.name = 'OpenEnvError'
  }
}

export const openEnvCode = (err: unknown): OpenEnvErrorCode =>
  err instanceof OpenEnvError ? err.code : err instanceof EnvServerError ? (err.status === 503 ? 'CAPACITY_REACHED' : err.status === 400 ? 'VALIDATION_ERROR' : 'EXECUTION_ERROR') : 'EXECUTION_ERROR'

const invalid = (prefix: string, error: z.ZodError): OpenEnvError => {
  const issues = issuesOf(error)
  const field = issues[0]?.field ?? '(body)'
  return new OpenEnvError(400, `Invalid ${prefix || 'request'}: ${issues.map((i) => `${prefix && i.field !== '(body)' ? `${prefix}.` : ''}${i.field}: ${i.message}`).join('; ')}`, prefix && field !== '(body)' ? `${prefix}.${field}` : prefix || field, 'VALIDATION_ERROR')
}

/** The create body of a reset request: OpenEnv's fields dropped, graph-menu and a default question filled in. */
export function createBodyOf(data: unknown, prefix: string, defaultQuestion: (seed: number) => { set: number; index: number }): { body: CreateEpisodeBody; clientId: string | null } {
  const outer = OpenEnvReset.safeParse(data ?? {})
  if (!outer.success) throw invalid(prefix, outer.error)
  const { seed, episode_id: clientId, ...fields } = outer.data
  const keyed = ['question_id', 'set', 'split', 'index'].some((k) => fields[k] !== undefined)
  let key = {}
  try {
    if (!keyed) key = defaultQuestion(seed ?? 0)
  } catch (err) {
    if (err instanceof QuestionLookupError) throw new OpenEnvError(404, err.message, err.field, 'EXECUTION_ERROR')
    throw err
  }
  const body = CreateEpisodeBody.safeParse({ environment: 'graph-menu', ...fields, ...(seed == null ? {} : { seed }), ...key })
  if (!body.success) throw invalid(prefix, body.error)
  return { body: body.data, clientId: clientId ?? null }
}

/** The step body of an OpenEnv action, and the answer it carries. */
export function stepBodyOf(action: unknown, prefix: string): { step: StepBody; answer: string | undefined } {
  const outer = OpenEnvAction.safeParse(action)
  if (!outer.success) throw invalid(prefix, outer.error)
  const { metadata: _metadata, answer, ...rest } = outer.data
  const step = StepBody.safeParse(rest)
  if (!step.success) throw invalid(prefix, step.error)
  return { step: step.data, answer }
}

/**
 * OpenEnv's reset answer around this server's create answer (made as JSON text in the lane). A client
 * that named the episode (`episode_id` in the reset) gets its own name back as the observation's
 * `episode_id`, the server's beside it as `server_episode_id`; both name the episode afterwards.
 */
export function resetAnswer(created: JsonText, clientId: string | null = null): JsonText {
  let text = created.text
  if (clientId !== null) {
    const reply = JSON.parse(text) as Record<string, unknown>
    text = JSON.stringify({ ...reply, episode_id: clientId, server_episode_id: reply.episode_id })
  }
  return new JsonText(`{"observation":${text},"reward":null,"done":false}`)
}

/** One step in OpenEnv's terms: the observation, and when the step ends the episode, its scoring (reward = the outcome reward). */
export async function stepAnswer(router: EpisodeRouter, id: string, step: StepBody, answer: string | undefined) {
  router.hold(id)
  try {
    const out = (await router.step(id, step)).parse(StepReply)
    if (!out.done) return { observation: { episode_id: id, text: out.observation, menu: out.menu ?? null, info: out.info }, reward: out.reward, done: false }
    const result = await router.finish(id, { answer })
    return { observation: { episode_id: id, text: out.observation, menu: null, info: out.info, result }, reward: result.reward, done: true }
  } finally {
    router.release(id)
  }
}

/** JSON Schemas for OpenEnv's GET /schema (exactly its three keys) and this server's /v1/schema (with the reset body). */
export function schemas() {
  return {
    action: z.toJSONSchema(StepBody, { io: 'input', unrepresentable: 'any' }),
    observation: {
      type: 'object',
      description: 'reset: episode_id, messages (system + user), menu or tools, question; step: episode_id, text, menu, info, and result (reward, components, per-step credit, metrics) when done',
    },
    state: { type: 'object', properties: { episode_id: { type: ['string', 'null'] }, step_count: { type: 'integer' }, environment: { type: 'string' } } },
  }
}
export const resetSchema = () => z.toJSONSchema(CreateEpisodeBody, { io: 'input', unrepresentable: 'any' })

/** Messages one /ws session may have waiting (received, not yet answered); past it, OpenEnv's CAPACITY_REACHED. */
export const WS_MAX_QUEUED = 16

/** The /ws sessions of one server, for /v1/stats: what they hold now, and what they refused or dropped. */
export class OpenEnvSessions {
  private readonly open = new Set<OpenEnvSession>()
  /** Messages answered with CAPACITY_REACHED because their session's queue was full. */
  refused = 0
  /** Messages never handled because their session closed first (the socket dropped, or a close message). */
  dropped = 0

  constructor(readonly maxQueued = WS_MAX_QUEUED) {
    if (!Number.isInteger(maxQueued) || maxQueued < 1 || maxQueued > 100_000) throw new Error(`wsMaxQueued must be an integer in 1..100000, got ${maxQueued}`)
  }

  add(session: OpenEnvSession): void {
    this.open.add(session)
  }

  remove(session: OpenEnvSession): void {
    this.open.delete(session)
  }

  stats(): { sessions: number; queued: number; max_queued: number; refused: number; dropped: number } {
    let queued = 0
    for (const s of this.open) queued += s.queued
    return { sessions: this.open.size, queued, max_queued: this.maxQueued, refused: this.refused, dropped: this.dropped }
  }
}

interface SessionEpisode {
  id: string
  clientId: string | null
}

/**
 * One WebSocket session: at most one episode; messages handled one at a time in arrival order, at most
 * `maxQueued` waiting (OpenEnv's own server reads one message at a time, so a client never has more than
 * one in flight there; one that sends without reading gets CAPACITY_REACHED for the excess at once,
 * never a queue that outlives it). The transport (compat.ts) feeds it text and sends what it answers;
 * `close()` drops the open episode and every message still waiting. A scored episode's state stays
 * readable (the state message) until the session's next reset or the server's idle timeout.
 */
export class OpenEnvSession {
  private episode: SessionEpisode | null = null
  /** The last scored episode, readable through the state message until the next reset. */
  private finished: SessionEpisode | null = null
  private queue: Promise<unknown> = Promise.resolve()
  private waiting = 0
  closed = false

  constructor(
    private readonly router: EpisodeRouter,
    private readonly defaultQuestion: (seed: number) => { set: number; index: number },
    private readonly all: OpenEnvSessions = new OpenEnvSessions(),
  ) {
    all.add(this)
  }

  /** Messages received and not yet answered. */
  get queued(): number {
    return this.waiting
  }

  /** Answers one client message (JSON text) with the JSON text to send; null when nothing is to be sent (closed). */
  handle(text: string): Promise<string | null> {
    if (this.closed) {
      this.all.dropped++
      return Promise.resolve(null)
    }
    if (this.waiting >= this.all.maxQueued) {
      this.all.refused++
      return Promise.resolve(
        JSON.stringify({
          type: 'error',
          data: {
            message: `This session has ${this.waiting} messages waiting, the most it holds: read the replies before sending more (one message at a time, as OpenEnv's client does)`,
            code: 'CAPACITY_REACHED',
            queued: this.waiting,
            max_queued: this.all.maxQueued,
          },
        }),
      )
    }
    this.waiting++
    const next = this.queue
      .then(() => {
        if (!this.closed) return this.answer(text)
        this.all.dropped++
        return null
      })
      .finally(() => {
        this.waiting--
      })
    this.queue = next.catch(() => undefined)
    return next
  }

  async close(): Promise<void> {
    if (!this.closed) this.all.remove(this)
    this.closed = true
    this.finished = null
    await this.drop()
  }

  private async answer(text: string): Promise<string | null> {
    let message: unknown
    try {
      message = JSON.parse(text)
    } catch (err) {
      return error(`Invalid JSON: ${(err as Error).message}`, 'INVALID_JSON')
    }
    if (message === null || typeof message !== 'object' || Array.isArray(message)) return error('A message is a JSON object with a "type": reset, step, state or close', 'VALIDATION_ERROR')
    const { type, data, ...extra } = message as Record<string, unknown>
    try {
      const unexpected = Object.keys(extra)
      if (unexpected.length) throw new OpenEnvError(400, `Unexpected key(s) ${unexpected.join(', ')}: a message has only "type" and "data"`, unexpected[0]!, 'VALIDATION_ERROR')
      switch (type) {
        case 'reset': {
          const { body, clientId } = createBodyOf(data, 'data', this.defaultQuestion)
          await this.drop()
          if (this.finished) this.router.forget(this.finished.id)
          this.finished = null
          const created = await this.router.create(body)
          this.episode = { id: created.parse(CreatedReply).episode_id, clientId }
          if (this.closed) await this.drop()
          return `{"type":"observation","data":${resetAnswer(created, clientId).text}}`
        }
        case 'step': {
          if (data === undefined) throw new OpenEnvError(400, 'A step message needs "data": the action ({menu_id | tool_call | text})', 'data', 'VALIDATION_ERROR')
          const { step, answer } = stepBodyOf(data, 'data')
          if (!this.episode) throw new OpenEnvError(409, 'No episode in this session: send {"type": "reset"} first (or again, after the episode ended)', 'type', 'SESSION_ERROR')
          const episode = this.episode
          const out = await stepAnswer(this.router, episode.id, step, answer)
          if (out.done) {
            this.episode = null
            this.finished = episode
          }
          return JSON.stringify({ type: 'observation', data: episode.clientId === null ? out : { ...out, observation: { ...out.observation, episode_id: episode.clientId } } })
        }
        case 'state': {
          if (data !== undefined && (data === null || typeof data !== 'object' || Object.keys(data).length > 0)) throw new OpenEnvError(400, 'A state message has no data', 'data', 'VALIDATION_ERROR')
          return JSON.stringify({ type: 'state', data: this.stateData() })
        }
        case 'close':
          await this.close()
          return null
        default:
          return error(`Unknown message type: ${typeof type === 'string' ? type.slice(0, 40) : JSON.stringify(type)}; known: reset, step, state, close`, 'UNKNOWN_TYPE')
      }
    } catch (err) {
      if (err instanceof EnvServerError) {
        // An episode the server dropped (idle timeout, worker restart) leaves the session without one.
        if (err.status === 404 && this.episode) this.episode = null
        return error(err.message, openEnvCode(err), err.field)
      }
      console.error('env-server /ws error:', err)
      return error((err as Error).message, 'EXECUTION_ERROR')
    }
  }

  /** The open episode's state, else the last scored one's while the server keeps it, else none. */
  private stateData(): Record<string, unknown> {
    const e = this.episode ?? this.finished
    if (e) {
      try {
        return { ...this.router.state(e.id), episode_id: e.clientId ?? e.id, server_episode_id: e.id }
      } catch (err) {
        // A scored episode past the idle timeout: the session has none to show.
        if (!(err instanceof EnvServerError && err.status === 404 && e === this.finished)) throw err
        this.finished = null
      }
    }
    return { episode_id: null, step_count: 0 }
  }

  private async drop(): Promise<void> {
    const e = this.episode
    this.episode = null
    if (e) await this.router.remove(e.id).catch(() => undefined)
  }
}

const error = (message: string, code: OpenEnvErrorCode, field?: string): string => JSON.stringify({ type: 'error', data: { message, code, ...(field ? { field } : {}) } })
