/**
 * The one environment interface every harness implements and every policy, trainer and UI uses.
 * Environments are plain modules over a workspace database and the retrieval contract; an ablation is
 * a config delta (a plain options object), never a code path.
 */
import type SQLite from 'better-sqlite3'
import type { Retriever } from '../retrieval'

/** A question with its gold, as stored in the workspace (`questions` table). */
export interface EnvQuestion {
  /** questions.id as a string, or any stable id for ad-hoc questions. */
  id: string
  question: string
  answers: string[]
  /** HotpotQA-style gold sentences: [document title, sentence ord]. */
  supportingFacts: { title: string; sentence: number }[]
  /** Titles / external ids of the gold documents. */
  supportingDocs: string[]
}

/** A menu item (Harness-G) or a tool (Harness-1, free query): what the policy may do now. */
export interface MenuItem {
  /** The id the policy answers with, e.g. "S3", "L2", "A", "W1". Unique within one menu. */
  id: string
  type: string
  /** One line for the policy and the UI. */
  label: string
  /** Structured target for scripted policies and the trajectory view (sentence id, entity id, ...). */
  target?: Record<string, unknown>
  /** Features for scripted and trainable policies (retrieval score, overlap, graph degree, ...). */
  features?: Record<string, number>
}

export interface ToolSchema {
  name: string
  description: string
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>
}

export type ActionSpace = { kind: 'menu'; items: MenuItem[] } | { kind: 'tools'; tools: ToolSchema[] }

/** What a policy sends: a menu id, a tool call, or raw model text that the environment parses. */
export type Action =
  | { kind: 'menu'; id: string }
  | { kind: 'tool'; name: string; arguments: unknown }
  | { kind: 'text'; text: string }

/** The evidence an action would add, computed without changing any state. */
export interface Preview {
  /** Sentence ids (Harness-G) or chunk ids (Harness-1) the action would add to what is visible/seen. */
  sentenceIds?: number[]
  chunkIds?: number[]
  /** Short text of what would be added, for the UI. */
  summary: string
}

export interface Observation {
  /** Rendered for an LLM policy (the environment's `render()` at this point). */
  text: string
  /** Structured view for scripted policies and the UI; environment-specific but JSON-serialisable. */
  data: Record<string, unknown>
}

export interface StepInfo {
  /** False when the action was malformed or not available; the step is then a recorded format error. */
  valid: boolean
  formatError?: string
  /** What happened, one line (for the trajectory view). */
  summary: string
  /** Ids of what this step added (provenance): sentences, entities, chunks. */
  added?: { sentenceIds?: number[]; entityIds?: number[]; chunkIds?: number[] }
  /** Environment time spent in this step, ms. */
  ms: number
}

export interface StepResult {
  observation: Observation
  done: boolean
  info: StepInfo
}

/** What an episode leaves behind for evaluation and rewards. */
export interface EpisodeOutcome {
  /** The evidence committed (Harness-G) or curated (Harness-1), in order. */
  evidence: { sentenceIds?: number[]; chunkIds?: number[] }
  /** Everything the agent saw (trajectory recall). */
  seen: { sentenceIds?: number[]; chunkIds?: number[] }
  /** The answer if the environment or policy produced one; the answerer fills it otherwise. */
  answer?: string
  turns: number
  formatErrors: number
  /** Why it ended: 'answer', 'turn-limit', 'budget', 'no-actions'. */
  endReason: string
}

export interface Environment<Snapshot = unknown> {
  readonly name: string
  reset(question: EnvQuestion, seed: number): Promise<Observation>
  /** Available actions now (empty menu / no tools once done). */
  actions(): ActionSpace
  step(action: Action): Promise<StepResult>
  /** Read-only: what the action would add. Environments without previews return null. */
  preview(action: Action): Promise<Preview | null>
  /** The full state, JSON-serialisable, enough to replay the step in the UI. */
  snapshot(): Snapshot
  /** The observation as text for an LLM policy. */
  render(): string
  /** Parses model text into an action, or a format error naming what was wrong. */
  parse(text: string): Action | { formatError: string }
  readonly done: boolean
  outcome(): EpisodeOutcome
}

/** What an environment may use: the workspace database and its retriever. */
export interface EnvContext {
  raw: SQLite.Database
  retriever: Retriever
}

export interface EnvironmentFactory<Config extends Record<string, unknown> = Record<string, unknown>> {
  name: string
  description: string
  defaults: Config
  create(ctx: EnvContext, config: Config): Environment
}
