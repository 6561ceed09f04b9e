/**
 * Open episodes of one thread of the environment server: each one an EpisodeRun (the one episode loop's
 * pieces, main/harness/run-episode.ts) over its own environment instance, created from the registry by
 * name and config delta. Trainers keep tokenisation: the server takes actions and returns text. A step
 * on an episode already stepping is refused rather than interleaved. Idle timeouts, storing and counters
 * live in the router (router.ts), which owns the HTTP thread; these sessions run in a worker thread over a
 * read-only connection, or in the HTTP thread itself with --workers 0.
 */
import { randomUUID } from 'node:crypto'
import type SQLite from 'better-sqlite3'
import { creditFits } from '../../preload/contract'
import { createEnvironment, environmentCatalog, environmentFactory, environmentNames, EpisodeRun, observationFor, POLICY_STYLES, promptParams, protocolDeclaration, resolvedConfig, systemPrompt, environmentContext, type Action, type ActionSpace, type Answerer, type EnvContext, type PolicyStyle, type Protocol, type ToolSchema, type Trajectory } from '../harness'
import { EvidenceResolver } from '../experiments/metrics/evidence'
import type { StoredQuestion } from '../experiments/questions'
import { LexicalAnswerer } from '../policy/answerer/lexical-answerer'
import { checkRewardConfig, checkRewardFits, goldProfile, type RewardConfig } from '../rl/reward-schemes'
import { creditNames, creditSchemes } from '../rl/credit'
import { defaultCredit, defaultReward, finishHook, rewardAndCredit, type FinishContext } from './finish'
import { QuestionLookup, QuestionLookupError } from './questions'
import type { StoredRunConfig } from './store'
import { retrieveDocuments, type RetrieveBody } from './retrieve'
import type { CreateEpisodeBody, FinishBody, StepBody, WireToolCall } from './wire'

/** A refusal with its HTTP status and the request field it is about. */
export class EnvServerError extends Error {
  constructor(readonly status: number, message: string, readonly field?: string) {
    super(message)
    this.name = 'EnvServerError'
  }
}

export interface SessionOptions {
  /** Scores evidence for SNC and answers when neither the environment nor the trainer did; the lexical stand-in by default. */
  answerer?: Answerer
  /** The server's reward; by default the environment family's (sp-f1 for Harness-G, the published Harness-1 reward). */
  reward?: RewardConfig
  /** The server's credit scheme; by default snc for the menu, outcome otherwise. */
  credit?: string
  /** Step cap per episode beyond the environment's own limit (default 200). */
  maxSteps?: number
}

/** What a finished episode gives the router: the wire answer, and the trajectory when the episode is to be stored. */
export interface Finished {
  result: FinishAnswer
  keep: { config: StoredRunConfig; questionRowId: number; trajectory: Trajectory } | null
}
export type FinishAnswer = Awaited<ReturnType<EpisodeSessions['finishAnswer']>>

interface Session {
  id: string
  run: EpisodeRun
  question: StoredQuestion
  environment: string
  protocol: Protocol
  /** Whose instructions the prompts carry (the create option `instructions`). */
  style: PolicyStyle
  config: Record<string, unknown>
  reward: RewardConfig
  credit: string
  groupId: string | undefined
  keep: boolean
  busy: boolean
  /** The trainer's final answer, set by finish before the episode is scored. */
  answer: { text: string | undefined }
}

export interface EnvServerCounters {
  open: number
  created: number
  finished: number
  deleted: number
  expired: number
  steps: number
  /** Requests refused or failed (4xx and 5xx). */
  errors: number
  /** Steps per second over the last 10 seconds. */
  stepsPerSecond: number
  stored: number
  /** Kept episodes not stored because their run already holds that question with that seed. */
  storeRepeats: number
}

type OpenAiTool = { type: 'function'; function: { name: string; description: string; parameters: Record<string, unknown> } }
type WireMenuItem = { id: string; type: string; label: string; features?: Record<string, number> }

export class EpisodeSessions {
  private readonly sessions = new Map<string, Session>()
  private readonly ctx: EnvContext
  private readonly questions: QuestionLookup
  private readonly finishCtx: FinishContext

  constructor(private readonly raw: SQLite.Database, private readonly options: SessionOptions = {}) {
    this.ctx = environmentContext(raw)
    this.questions = new QuestionLookup(raw)
    this.finishCtx = { raw, evidence: new EvidenceResolver(raw), answerer: options.answerer ?? new LexicalAnswerer() }
    if (options.reward) checkRewardConfig(options.reward)
    if (options.credit && !creditNames().includes(options.credit)) throw new Error(`Unknown credit scheme "${options.credit}"; known: ${creditNames().join(', ')}`)
  }

  get answererName(): string {
    return this.finishCtx.answerer.name
  }

  get open(): number {
    return this.sessions.size
  }

  /** Names, declarations and defaults of every registered environment, with the reward and credit this server gives each. */
  environments() {
    return environmentsOf(this.options)
  }

  /** Opens an episode under the id the router made; `keep` takes the snapshots a stored episode needs. */
  async create(body: CreateEpisodeBody, id: string = randomUUID(), keep = false) {
    if (this.sessions.has(id)) throw new EnvServerError(409, `Episode ${id} exists already`, 'id')
    if (!environmentNames().includes(body.environment)) throw new EnvServerError(400, `Unknown environment "${body.environment}"; known: ${environmentNames().join(', ')}`, 'environment')
    const factory = environmentFactory(body.environment)
    if (body.reward) {
      try {
        checkRewardConfig(body.reward)
      } catch (err) {
        throw new EnvServerError(400, (err as Error).message, 'reward.weights')
      }
    }
    const credit = body.credit ?? this.options.credit ?? defaultCredit(factory.protocol)
    if (!creditNames().includes(credit)) throw new EnvServerError(400, `Unknown credit scheme "${credit}"; known: ${creditNames().join(', ')}`, 'credit')
    if (!creditFits(creditSchemes.get(credit).capabilities, factory.protocol)) throw new EnvServerError(400, `Credit "${credit}" needs the menu's previews: only environments whose protocol previews its actions support it; use "${defaultCredit(factory.protocol)}" for ${body.environment}`, 'credit')
    let question: StoredQuestion
    try {
      question = body.question_id !== undefined ? this.questions.byId(body.question_id) : body.set !== undefined ? this.questions.bySet(body.set, body.split as string | undefined, body.index!) : this.questions.bySplit(body.split!, body.index!)
    } catch (err) {
      if (err instanceof QuestionLookupError) throw new EnvServerError(404, err.message, err.field)
      throw err
    }
    // The reward must be computable on this question's gold; left out, it follows that gold's level.
    const gold = goldProfile([question])
    const reward = body.reward ?? this.options.reward ?? defaultReward(factory.protocol, gold)
    try {
      checkRewardFits(reward, gold, `question ${question.rowId}`, factory.family)
    } catch (err) {
      throw new EnvServerError(400, (err as Error).message, 'reward.weights')
    }
    let env
    try {
      env = createEnvironment(body.environment, this.ctx, body.config)
    } catch (err) {
      const key = /has no option "([^"]+)"/.exec((err as Error).message)?.[1]
      throw new EnvServerError(400, (err as Error).message, key ? `config.${key}` : 'config')
    }
    const needsCredit = creditSchemes.get(credit).capabilities.needsPreviews
    // The finish hook reads the trainer's answer, which arrives with the finish request.
    const answer: { text: string | undefined } = { text: undefined }
    const run = await EpisodeRun.start(env, question, body.seed, {
      previews: needsCredit,
      observations: needsCredit,
      snapshots: keep,
      maxSteps: this.options.maxSteps ?? 200,
      finish: finishHook(this.finishCtx, question, reward, factory.rewardScheme, () => answer.text),
    })
    const session: Session = {
      id,
      run,
      question,
      environment: body.environment,
      protocol: factory.protocol,
      style: body.instructions ?? 'text',
      config: resolvedConfig(body.environment, body.config),
      reward,
      credit,
      groupId: body.group_id,
      keep,
      busy: false,
      answer,
    }
    this.sessions.set(id, session)
    const actions = env.actions()
    const { style } = session
    return {
      episode_id: id,
      environment: body.environment,
      group_id: body.group_id ?? null,
      question: { id: question.rowId, text: question.question },
      instructions: style,
      messages: [
        { role: 'system' as const, content: systemPrompt(factory.protocol, promptParams(factory.protocol, session.config), actions.kind === 'tools' ? actions.tools : [], { style }) },
        { role: 'user' as const, content: observationFor(factory.protocol, style, session.run.observation.text) },
      ],
      action_kind: protocolDeclaration(factory.protocol).actionKind,
      ...wireActions(actions, true, style === 'tools' ? protocolDeclaration(factory.protocol).menuTool : null),
      done: session.run.done,
    }
  }

  async step(id: string, body: StepBody) {
    const session = this.take(id)
    try {
      if (session.run.done) throw new EnvServerError(409, 'The episode is over: call finish')
      const started = performance.now()
      const actions = session.run.env.actions()
      const previews = await session.run.previews(actions)
      const tp = performance.now()
      const step = await session.run.step(toAction(body, actions, protocolDeclaration(session.protocol).menuTool), {}, { actions, previews }, { started, previews: tp - started, policy: 0 })
      const done = session.run.done
      return {
        observation: observationFor(session.protocol, session.style, session.run.observation.text),
        // The configured reward is an outcome reward: it arrives with finish, with per-step credit.
        reward: 0,
        done,
        info: {
          t: step.t,
          valid: step.info.valid,
          format_error: step.info.formatError ?? null,
          summary: step.info.summary,
          provenance: step.info.added ?? {},
          env_ms: step.timings?.env ?? step.ms,
          end_reason: done ? (session.run.env.done ? session.run.env.outcome().endReason : 'step-cap') : null,
        },
        ...(done ? {} : wireActions(session.run.env.actions(), false)),
      }
    } finally {
      session.busy = false
    }
  }

  async finish(id: string, body: FinishBody): Promise<Finished> {
    const session = this.take(id)
    try {
      session.answer.text = body.answer
      // An episode the environment did not end was stopped by the trainer, or by the step cap.
      const trajectory = await session.run.finish(session.run.done ? 'step-cap' : 'stopped-by-trainer')
      const result = await this.finishAnswer(session, trajectory)
      const config: StoredRunConfig = { environment: session.environment, envConfig: session.config, reward: session.reward, credit: session.credit, answerer: { name: this.finishCtx.answerer.name, lexical: this.finishCtx.answerer.lexical } }
      return { result, keep: session.keep ? { config, questionRowId: session.question.rowId, trajectory } : null }
    } finally {
      // A failed finish leaves nothing half-open: the episode is gone either way.
      this.sessions.delete(id)
      session.busy = false
    }
  }

  /** Drops an episode without scoring it. */
  remove(id: string): void {
    if (!this.sessions.delete(id)) throw new EnvServerError(404, `No open episode ${id} (finished, deleted or timed out)`, 'id')
  }

  /** Search-R1's retrieval call over this workspace's retriever (retrieve.ts). */
  retrieve(body: RetrieveBody) {
    return retrieveDocuments(this.ctx, body)
  }

  /** Open episodes are dropped. */
  close(): void {
    this.sessions.clear()
  }

  private async finishAnswer(session: Session, trajectory: Trajectory) {
    const { reward, credit } = await rewardAndCredit(this.finishCtx, trajectory, session.reward, session.credit)
    return {
      episode_id: session.id,
      group_id: session.groupId ?? null,
      reward: reward.total,
      components: reward.components,
      missing_terms: reward.missing,
      credit_scheme: session.credit,
      per_step_credit: credit.map((c) => ({ total: c.total, frontier: c.frontier, enablement: c.enablement, gain: c.gain })),
      metrics: trajectory.metrics,
      answer: trajectory.answer,
      outcome: { turns: trajectory.outcome.turns, format_errors: trajectory.outcome.formatErrors, end_reason: trajectory.outcome.endReason, tools_used: trajectory.outcome.toolsUsed },
      /** Filled by the router, which stores. */
      stored_run_id: null as number | null,
    }
  }

  private take(id: string): Session {
    const session = this.sessions.get(id)
    if (!session) throw new EnvServerError(404, `No open episode ${id} (finished, deleted or timed out)`, 'id')
    if (session.busy) throw new EnvServerError(409, `Episode ${id} is busy with another request: send its steps one at a time`, 'id')
    session.busy = true
    return session
  }
}

/**
 * The catalogue GET /v1/environments serves: every registered environment with the reward, credit and
 * system prompt this server gives it (for its default config; an episode's prompt also lists its tools).
 */
export function environmentsOf(options: Pick<SessionOptions, 'reward' | 'credit'>) {
  return environmentCatalog().map((e) => ({
    ...e,
    reward: options.reward ?? defaultReward(e.protocol),
    credit: options.credit ?? defaultCredit(e.protocol),
    systemPrompt: systemPrompt(e.protocol, promptParams(e.protocol, e.defaults)),
    /** The system prompt for each policy style (the create option `instructions`), and a menu's tool for tool-calling policies. */
    instructions: Object.fromEntries(POLICY_STYLES.map((style) => [style, systemPrompt(e.protocol, promptParams(e.protocol, e.defaults), [], { style })])) as Record<PolicyStyle, string>,
    menuTool: protocolDeclaration(e.protocol).menuTool ? openAiTool(protocolDeclaration(e.protocol).menuTool!) : null,
  }))
}

const openAiTool = (t: ToolSchema): OpenAiTool => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } })

/** The reply's menu or tools; a menu offered to a tool-calling policy also lists the tool it is acted on through. */
function wireActions(actions: ActionSpace, withTools: boolean, menuTool: ToolSchema | null = null): { tools?: OpenAiTool[]; menu?: WireMenuItem[] } {
  if (actions.kind === 'menu') return { menu: actions.items.map((i) => ({ id: i.id, type: i.type, label: i.label, ...(i.features ? { features: i.features } : {}) })), ...(withTools && menuTool ? { tools: [openAiTool(menuTool)] } : {}) }
  if (!withTools) return {}
  return { tools: actions.tools.map(openAiTool) }
}

/**
 * The wire action as the environment's Action. A menu_id that is not exactly on the menu is read as the
 * model's reply (parseMenuReply: "S2.", a think block, {"menu_id": ...}); arguments that are not valid
 * JSON go to the environment's parser, which records the format error.
 */
function toAction(body: StepBody, actions: ActionSpace, menuTool: ToolSchema | null): Action {
  const call = body.tool_call as WireToolCall | undefined
  const fn = call && ('function' in call ? call.function : call)
  // A menu acted on through its tool (a tool-calling policy): choose(menu_id) is that menu id.
  const chosen = fn && actions.kind === 'menu' && fn.name === menuTool?.name ? menuIdOf(fn.arguments) : undefined
  const menuId = body.menu_id ?? chosen
  if (menuId !== undefined) {
    const exact = actions.kind === 'menu' && actions.items.some((i) => i.id === menuId)
    return exact || actions.kind !== 'menu' ? { kind: 'menu', id: menuId } : { kind: 'text', text: menuId }
  }
  if (body.text !== undefined) return { kind: 'text', text: body.text }
  const { name, arguments: args } = fn!
  if (typeof args !== 'string') return { kind: 'tool', name, arguments: args }
  try {
    const parsed: unknown = JSON.parse(args)
    return { kind: 'tool', name, arguments: parsed }
  } catch {
    return { kind: 'text', text: `{"name": ${JSON.stringify(name)}, "arguments": ${args}}` }
  }
}

/** The menu id of a choose(menu_id) call (arguments an object or its JSON text); the call's text when there is none, for the menu's parser. */
function menuIdOf(args: Record<string, unknown> | string): string {
  let parsed: unknown = args
  if (typeof args === 'string') {
    try {
      parsed = JSON.parse(args)
    } catch {
      return args
    }
  }
  const id = (parsed as Record<string, unknown> | null)?.menu_id
  return typeof id === 'string' || typeof id === 'number' ? String(id) : JSON.stringify(parsed)
}
