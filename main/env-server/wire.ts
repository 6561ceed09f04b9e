/**
 * The environment server's wire format (HTTP/JSON, OpenEnv/Gym-shaped): request bodies validated here,
 * so a bad request is a 400 that names the field. Field names are snake_case, as Python trainers write them.
 */
import { z } from 'zod'
import { jsonColumn } from '../db/json-column'
import { RewardConfigSchema } from '../../preload/contract/training'

const Json = z.record(z.string(), z.unknown())

/** An OpenAI-style tool call: `{name, arguments}` (arguments an object or a JSON string), or wrapped as `{function: {...}}`. */
const ToolCall = z.union([
  z.strictObject({ name: z.string().min(1).max(128), arguments: z.union([Json, z.string().max(100_000)]).default({}), id: z.string().max(256).optional(), type: z.literal('function').optional() }),
  z.strictObject({
    id: z.string().max(256).optional(),
    type: z.literal('function').optional(),
    function: z.strictObject({ name: z.string().min(1).max(128), arguments: z.union([Json, z.string().max(100_000)]).default({}) }),
  }),
])
export type WireToolCall = z.infer<typeof ToolCall>

export const CreateEpisodeBody = z
  .strictObject({
    environment: z.string().min(1).max(64),
    /** Config delta over the environment's defaults (an ablation is a delta). */
    config: Json.default({}),
    /**
     * The question: `question_id` (questions.id, a number or the same as a decimal string), or `set` (a
     * question set's id as a number, or its name as a string) + optional `split` (a split label stored on
     * the questions: 'train', 'dev', ...) + `index` (0-based, in id order within the set, or within the
     * set's questions of that split). Older form, kept as the README promised it: `split` alone + `index`,
     * `split` then being a set id or name or a label counted over the whole workspace.
     */
    question_id: z.union([z.number().int().min(1), z.string().regex(/^[1-9][0-9]{0,14}$/, 'a question id is a positive integer, or the same as a decimal string').transform(Number)]).optional(),
    set: z.union([z.number().int().min(1), z.string().min(1).max(200)]).optional(),
    split: z.union([z.number().int().min(1), z.string().min(1).max(200)]).optional(),
    index: z.number().int().min(0).optional(),
    seed: z.number().int().min(0).max(2 ** 31 - 1).default(0),
    /** The trainer's rollout group (GRPO group); stored with the episode, echoed back. */
    group_id: z.string().max(200).optional(),
    /** Overrides the server's reward for this episode (term weights, as the Rewards page). */
    reward: RewardConfigSchema.optional(),
    /** Overrides the server's credit scheme for this episode: outcome, snc, info-gain. */
    credit: z.string().min(1).max(64).optional(),
    /**
     * Whose instructions the episode's prompts carry: a text policy's (default: reply with a menu id or a JSON call) or
     * a tool-calling policy's (act through tool calls: the system prompt asks for one, observations ask for
     * choose(menu_id) on a menu, whose tool the reply then lists).
     */
    instructions: z.enum(['text', 'tools']).optional(),
  })
  .superRefine((b, ctx) => {
    const issue = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: [field], message })
    const keyed = b.set !== undefined || b.split !== undefined || b.index !== undefined
    if (b.question_id !== undefined && keyed) issue('question_id', 'give question_id, or set (+ split) + index, not both')
    else if (b.question_id === undefined && !keyed) issue('question_id', 'give question_id, or set + index (with split to count within a split)')
    else if (b.question_id === undefined && b.set === undefined && b.split === undefined) issue('set', 'set is required with index')
    else if (b.question_id === undefined && b.index === undefined) issue('index', `index is required with ${b.set !== undefined ? 'set' : 'split'}`)
    else if (b.set !== undefined && typeof b.split === 'number') issue('split', "with set, split is a split label (a string such as 'train'), not a number")
  })
export type CreateEpisodeBody = z.infer<typeof CreateEpisodeBody>

/** Exactly one of tool_call, menu_id, text. A menu_id that is not exactly an id is read as the model's reply (parseMenuReply). */
export const StepBody = z
  .strictObject({ tool_call: ToolCall.optional(), menu_id: z.string().min(1).max(10_000).optional(), text: z.string().max(100_000).optional() })
  .superRefine((b, ctx) => {
    const given = ['tool_call', 'menu_id', 'text'].filter((k) => b[k as keyof typeof b] !== undefined)
    if (given.length !== 1) ctx.addIssue({ code: 'custom', path: given.length ? [given[1]!] : ['tool_call'], message: `send exactly one of tool_call, menu_id, text (got ${given.length ? given.join(', ') : 'none'})` })
  })
export type StepBody = z.infer<typeof StepBody>

export const FinishBody = z.strictObject({ answer: z.string().max(10_000).optional() })
export type FinishBody = z.infer<typeof FinishBody>

/** Episode ids are server-made UUIDs; anything else is refused before a lookup. */
export const EpisodeId = z.uuid()

/** `path: message` per issue, the path joined with dots (`config.turnLimit`, `tool_call.name`). */
export function issuesOf(error: z.ZodError): { field: string; message: string }[] {
  return error.issues.map((i) => ({ field: i.path.map(String).join('.') || '(body)', message: i.message }))
}

/** A reply already serialised in the lane that made it (lanes.ts): the transport sends the text as it is. */
export class JsonText {
  constructor(readonly text: string) {}
  /** The reply as a value of `schema`'s shape (the fields the caller reads); an error naming the reply otherwise. */
  parse<S extends z.ZodType>(schema: S): z.output<S> {
    return jsonColumn('an environment-server reply', schema).read(this.text)
  }
}

/** The fields of a created episode's reply that the compatibility routes read. */
export const CreatedReply = z.looseObject({ episode_id: z.string() })
