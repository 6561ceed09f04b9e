/**
 * The trajectory of one episode as it crosses every boundary: the episode loop returns it, runs store it,
 * the Trajectory view renders it, trainers and the environment server read it. The backend's harness types
 * are inferred from these schemas, so the two cannot drift apart.
 */
import { z } from 'zod'

const NumberRecord = z.record(z.string(), z.number())
const Json = z.record(z.string(), z.unknown())

/** A sentence a menu item names or would add (Harness-G); `handle` is the per-episode number the menu shows. */
export const AddedSentenceSchema = z.object({ id: z.number(), documentId: z.number(), title: z.string(), ord: z.number() })
export const SentenceRefSchema = AddedSentenceSchema.extend({ handle: z.number() })

/**
 * What a Harness-G menu item points at, for scripted policies, features and the trajectory view: the
 * sentence a SELECT or ANSWER-with commits, the entity a LOOKUP follows (its query and de-duplication
 * key), and the sentences the item would add (empty for a bare ANSWER).
 */
export const MenuTargetSchema = z.object({
  sentence: SentenceRefSchema.optional(),
  entity: z.object({ handle: z.number(), ids: z.array(z.number()), name: z.string(), type: z.string(), canonical: z.string() }).optional(),
  query: z.string().optional(),
  key: z.string().optional(),
  adds: z.array(AddedSentenceSchema),
})

/** A menu item (Harness-G): what the policy may choose now. */
export const MenuItemSchema = z.object({
  /** The id the policy answers with, e.g. "S3", "L2", "A", "W1". Unique within one menu. */
  id: z.string(),
  type: z.string(),
  /** One line for the policy and the UI. */
  label: z.string(),
  /** Structured target for scripted policies and the trajectory view (sentence, entity, what it adds). */
  target: MenuTargetSchema.optional(),
  /** Features for scripted and trainable policies (retrieval score, overlap, graph degree, ...). */
  features: NumberRecord.optional(),
})

export const ToolSchemaSchema = z.object({
  name: z.string(),
  description: z.string(),
  /** JSON Schema of the arguments object. */
  parameters: Json,
})

export const ActionSpaceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('menu'), items: z.array(MenuItemSchema) }),
  z.object({ kind: z.literal('tools'), tools: z.array(ToolSchemaSchema) }),
])

/** What a policy sends: a menu id, a tool call, or raw model text that the environment parses. */
export const ActionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('menu'), id: z.string() }),
  z.object({ kind: z.literal('tool'), name: z.string(), arguments: z.unknown() }),
  z.object({ kind: z.literal('text'), text: z.string() }),
])

/** The evidence an action would add, computed without changing any state. */
export const PreviewSchema = z.object({
  /** Sentence ids (Harness-G) or chunk ids (Harness-1) the action would add to what is visible/seen. */
  sentenceIds: z.array(z.number()).optional(),
  chunkIds: z.array(z.number()).optional(),
  /** Short text of what would be added, for the UI. */
  summary: z.string(),
})

const AddedSchema = z.object({
  sentenceIds: z.array(z.number()).optional(),
  entityIds: z.array(z.number()).optional(),
  chunkIds: z.array(z.number()).optional(),
})

export const StepInfoSchema = z.object({
  /** False when the action was malformed or not available; the step is then a recorded format error. */
  valid: z.boolean(),
  formatError: z.string().optional(),
  /** What happened, one line (for the trajectory view). */
  summary: z.string(),
  /** Ids of what this step added (provenance): sentences, entities, chunks. */
  added: AddedSchema.optional(),
  /** Environment time spent in this step, ms. */
  ms: z.number(),
  /**
   * Set when a wall-clock safety net cut this step's result short (e.g. grep_corpus's time guard): the
   * result then depends on machine load, not only on the seed. Says which guard fired.
   */
  wallClockGuard: z.string().optional(),
})

/** The policy's side of a step: log-probability of the chosen action, raw model output, cost. */
export const DecisionSchema = z.object({
  /** Log-probability of the chosen action under the policy, when it has one. */
  logprob: z.number().optional(),
  /** Raw model output, token count and latency, for LLM policies. */
  raw: z.string().optional(),
  tokens: z.number().optional(),
  ms: z.number().optional(),
  /** What a trainer needs to recompute the log-probability later (chosen index, candidate count, ...). */
  trainer: Json.optional(),
})

export const EvidenceIdsSchema = z.object({ sentenceIds: z.array(z.number()).optional(), chunkIds: z.array(z.number()).optional() })

/** What an episode leaves behind for evaluation and rewards. */
export const EpisodeOutcomeSchema = z.object({
  /** The evidence committed (Harness-G) or curated (Harness-1), in order. */
  evidence: EvidenceIdsSchema,
  /** Everything the agent saw (trajectory recall). */
  seen: EvidenceIdsSchema,
  /** What the policy's own queries made visible (free query's searches); absent where the policy writes no queries. */
  queried: EvidenceIdsSchema.optional(),
  /** The answer if the environment or policy produced one; the answerer fills it otherwise. */
  answer: z.string().optional(),
  turns: z.number(),
  formatErrors: z.number(),
  /** Why it ended: 'answer', 'turn-limit', 'budget', 'no-actions', 'step-cap'. */
  endReason: z.string(),
  /** Distinct tools (tool environments) or menu item types (menu environments) used in valid steps, in order of first use. */
  toolsUsed: z.array(z.string()).default([]),
  /** Steps whose result a wall-clock safety net cut short (StepInfo.wallClockGuard); absent when none did. */
  wallClockGuards: z.number().int().min(0).optional(),
})

/** Harness-1's working memory as the policy saw it after a step, for the Trajectory view. */
export const WorkingMemoryViewSchema = z.object({
  mode: z.enum(['stateful', 'transcript']),
  budget: z.object({ used: z.number(), limit: z.number(), fraction: z.number(), warning: z.number().nullable(), levelName: z.string(), tokenizer: z.string() }),
  curated: z.array(z.object({ id: z.string(), title: z.string(), tag: z.string().nullable(), via: z.string(), summary: z.string() })),
  /** Curated ids by tag, strongest first. */
  curatedByTag: z.record(z.string(), z.array(z.string())),
  pool: z.array(z.object({ id: z.string(), title: z.string(), summary: z.string(), query: z.string() })),
  evidenceGraph: z
    .object({ bridges: z.array(z.object({ entity: z.string(), type: z.string(), docIds: z.array(z.string()) })), bridgeCount: z.number(), singleDocEntities: z.number() })
    .nullable(),
  verifications: z.array(z.object({ claim: z.string(), docIds: z.array(z.string()), verdict: z.string(), checker: z.string(), lexical: z.boolean() })).nullable(),
})

/** Harness-G's committed evidence after a step, for the Trajectory view. */
export const CommittedEvidenceSchema = z.array(z.object({ sentenceId: z.number(), title: z.string(), ord: z.number(), text: z.string() }))

/** How the environment describes a step for people: what it changed, and its state in a typed view. */
export const StepViewSchema = z.object({
  changes: z.array(z.string()),
  memory: WorkingMemoryViewSchema.nullable(),
  committed: CommittedEvidenceSchema.nullable(),
})

export const TrajectoryStepSchema = z.object({
  t: z.number(),
  /** The observation the policy acted on, as rendered text. */
  observationText: z.string(),
  actions: ActionSpaceSchema,
  /** Preview of every menu item at this step, when asked for. */
  previews: z.record(z.string(), PreviewSchema.nullable()).nullable(),
  action: ActionSchema,
  decision: DecisionSchema,
  info: StepInfoSchema,
  /** Total ms of the step: previews, policy and environment. */
  ms: z.number(),
  /** Where the step's time went, ms (absent in steps stored before timings were split). */
  timings: z.object({ previews: z.number(), policy: z.number(), env: z.number() }).optional(),
})

export type MenuItemShape = z.infer<typeof MenuItemSchema>
export type MenuTarget = z.infer<typeof MenuTargetSchema>
export type SentenceRefShape = z.infer<typeof SentenceRefSchema>
export type AddedSentenceShape = z.infer<typeof AddedSentenceSchema>
export type ActionSpaceShape = z.infer<typeof ActionSpaceSchema>
export type ActionShape = z.infer<typeof ActionSchema>
export type PreviewShape = z.infer<typeof PreviewSchema>
export type StepInfoShape = z.infer<typeof StepInfoSchema>
export type DecisionShape = z.infer<typeof DecisionSchema>
export type EpisodeOutcomeShape = z.infer<typeof EpisodeOutcomeSchema>
export type WorkingMemoryView = z.infer<typeof WorkingMemoryViewSchema>
export type CommittedEvidence = z.infer<typeof CommittedEvidenceSchema>
export type StepView = z.infer<typeof StepViewSchema>
export type TrajectoryStepShape = z.infer<typeof TrajectoryStepSchema>
