/**
 * OpenEnv-style routes beside /v1, for clients written against OpenEnv's HTTP environment servers:
 *   POST /reset  {environment, question_id | split + index, seed, config, ...}  -> {observation, reward: null, done}
 *   POST /step   {episode_id, action: {menu_id | tool_call | text}, answer?}    -> {observation, reward, done}
 *   GET  /state?episode_id=...                                                -> {episode_id, step_count, environment}
 *   GET  /schema                                                              -> JSON Schemas of action, reset and observation
 * OpenEnv has no finish call, so the step that ends an episode also scores it: its reward is the outcome
 * reward and `observation.result` holds what /v1/episodes/:id/finish returns. One server holds many
 * episodes, so /step and /state name theirs (`episode_id`, from /reset's observation).
 */
import type { FastifyInstance, FastifyReply } from 'fastify'
import { z } from 'zod'
import type { EpisodeRouter } from './router'
import { CreateEpisodeBody, EpisodeId, JsonText, StepBody } from './wire'

const CompatStep = z.strictObject({
  episode_id: EpisodeId,
  action: z.record(z.string(), z.unknown()),
  /** The trainer's final answer, scored when this step ends the episode. */
  answer: z.string().max(10_000).optional(),
})

interface Helpers {
  parse<S extends z.ZodType>(schema: S, body: unknown, reply: FastifyReply): z.output<S> | null
  answer(reply: FastifyReply, work: () => Promise<unknown> | unknown): Promise<unknown>
  refuse(reply: FastifyReply, status: number, message: string, extra: { field: string }): unknown
}

export function registerCompatRoutes(app: FastifyInstance, router: EpisodeRouter, { parse, answer, refuse }: Helpers): void {
  app.post('/reset', async (req, reply) => {
    const body = parse(CreateEpisodeBody, req.body, reply)
    if (body) return answer(reply, async () => new JsonText(`{"observation":${(await router.create(body)).text},"reward":null,"done":false}`))
  })

  app.post('/step', async (req, reply) => {
    const outer = parse(CompatStep, req.body, reply)
    if (!outer) return
    const action = StepBody.safeParse(outer.action)
    if (!action.success) {
      const issue = action.error.issues[0]
      return refuse(reply, 400, `Invalid action: ${issue?.message ?? 'send one of menu_id, tool_call, text'}`, { field: ['action', ...(issue?.path ?? [])].join('.') })
    }
    const id = outer.episode_id
    return answer(reply, async () => {
      router.hold(id)
      try {
        const step = (await router.step(id, action.data)).parse<{ observation: string; done: boolean; reward: number; info: unknown; menu?: unknown }>()
        if (!step.done) return { observation: { episode_id: id, text: step.observation, menu: step.menu ?? null, info: step.info }, reward: step.reward, done: false }
        const result = await router.finish(id, { answer: outer.answer })
        return { observation: { episode_id: id, text: step.observation, menu: null, info: step.info, result }, reward: result.reward, done: true }
      } finally {
        router.release(id)
      }
    })
  })

  app.get<{ Querystring: { episode_id?: string } }>('/state', async (req, reply) => {
    const id = req.query.episode_id
    if (!id || !EpisodeId.safeParse(id).success) return refuse(reply, 400, 'GET /state needs ?episode_id=<the id /reset returned>', { field: 'episode_id' })
    return answer(reply, () => router.state(id))
  })

  app.get('/schema', async () => ({
    action: z.toJSONSchema(StepBody, { io: 'input', unrepresentable: 'any' }),
    reset: z.toJSONSchema(CreateEpisodeBody, { io: 'input', unrepresentable: 'any' }),
    observation: {
      type: 'object',
      description: 'reset: episode_id, messages (system + user), menu or tools, question; step: episode_id, text, menu, info, and result (reward, components, per-step credit, metrics) when done',
    },
    state: { type: 'object', properties: { episode_id: { type: 'string' }, step_count: { type: 'integer' }, environment: { type: 'string' } } },
  }))
}
