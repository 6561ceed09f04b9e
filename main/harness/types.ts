/**
 * The one environment interface every harness implements and every policy, trainer and UI uses.
 * Environments are plain modules over the corpus readers (main/corpus/repository) and the retrieval
 * contract, never the database; an ablation is a config delta (a plain options object), never a code path.
 */
import type { z } from 'zod'
import type { ActionShape, ActionSpaceShape, EpisodeOutcomeShape, MenuItemShape, PreviewShape, StepInfoShape, StepView, ToolSchemaSchema } from '../../preload/contract/trajectory'
import type { ResolvedGold } from '../corpus/gold'
import { workspaceCorpus, type CorpusReader, type WorkspaceHandle } from '../corpus/repository'
import { createRetriever, type Retriever } from '../retrieval'
import type { Protocol } from './protocols'

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
  /**
   * The same gold resolved against the corpus (by document and sentence id), filled when questions are
   * loaded (main/experiments/questions.ts); absent for ad-hoc questions, which are then resolved on the
   * fly by the same resolver (main/corpus/gold.ts).
   */
  gold?: ResolvedGold
}

/** Gold evidence resolved against the workspace once, when the question is loaded; shared by scoring, rewards and the oracle (defined beside its resolver). */
export type { ResolvedGold }

export type MenuItem = MenuItemShape
export type ToolSchema = z.infer<typeof ToolSchemaSchema>
export type ActionSpace = ActionSpaceShape
/** What a policy sends: a menu id, a tool call, or raw model text that the environment parses. */
export type Action = ActionShape
/** The evidence an action would add, computed without changing any state. */
export type Preview = PreviewShape
export type StepInfo = StepInfoShape
/** What an episode leaves behind for evaluation and rewards. */
export type EpisodeOutcome = EpisodeOutcomeShape

export interface Observation {
  /** Rendered for an LLM policy (the environment's `render()` at this point). */
  text: string
  /** Structured view for scripted policies and the UI; environment-specific but JSON-serialisable. */
  data: Record<string, unknown>
}

export interface StepResult {
  observation: Observation
  done: boolean
  info: StepInfo
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

/** What the environments read of the corpus: small synchronous readers, never the database (main/corpus/repository). */
export type EnvCorpus = CorpusReader

/**
 * What an environment may use: what it reads of the corpus (small reader interfaces, never the database)
 * and the retriever. Build it with environmentContext().
 */
export interface EnvContext {
  corpus: EnvCorpus
  retriever: Retriever
}

/** The context an environment is created with: the workspace's corpus readers and a retriever (by default a new one over the same database). */
export function environmentContext(raw: WorkspaceHandle, retriever: Retriever = createRetriever(raw)): EnvContext {
  return { corpus: workspaceCorpus(raw), retriever }
}

/** The corpus an environment reads. */
export function envCorpus(ctx: EnvContext): EnvCorpus {
  return ctx.corpus
}

/** An ablation row: a named config delta over the environment's defaults. */
export interface EnvironmentPreset {
  name: string
  label: string
  delta: Record<string, unknown>
}

export interface EnvironmentFactory<Config extends Record<string, unknown> = Record<string, unknown>> {
  name: string
  description: string
  /** Which published system it implements (or the baseline of). */
  family: 'harness-g' | 'harness-1'
  /** The protocol it speaks; the action kind, previews and the ANSWER action are the protocol's (main/harness/protocols.ts). */
  protocol: Protocol
  /** The reward scheme (a name in rl/rewards) that fits it; evaluations store its terms beside the metrics. */
  rewardScheme: string | null
  /** Ablation rows as config deltas. */
  presets: readonly EnvironmentPreset[]
  defaults: Config
  create(ctx: EnvContext, config: Config): Environment
  /** A step for people: what it changed (from the snapshots before and after) and the state in a typed view. */
  describeStep(before: unknown, after: unknown): StepView
}
