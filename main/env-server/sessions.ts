/**
 * Open episodes of the environment server: each one an EpisodeRun (the one episode loop's pieces,
 * main/harness/run-episode.ts) over its own environment instance, created from the registry by name and
 * config delta. Trainers keep tokenisation: the server takes actions and returns text. Idle episodes
 * time out and are dropped; a step on an episode already stepping is refused rather than interleaved.
 */
import { randomUUID } from 'node:crypto'
import type SQLite from 'better-sqlite3'
import { createEnvironment, environmentCatalog, environmentFactory, environmentNames, EpisodeRun, resolvedConfig, environmentContext, type Action, type ActionSpace, type Answerer, type EnvContext } from '../harness'
import { EvidenceResolver } from '../experiments/evidence'
import type { StoredQuestion } from '../experiments/questions'
import { LexicalAnswerer } from '../policy/answerer'
import { FREE_QUERY_SYSTEM_PROMPT, MENU_SYSTEM_PROMPT, TOOLS_SYSTEM_PROMPT } from '../policy/prompt'
import { checkRewardConfig, checkRewardFits, goldProfile, type RewardConfig } from '../rl/reward-schemes'
import { creditNames } from '../rl/credit'
import { defaultCredit, defaultReward, finishHook, rewardAndCredit, type FinishContext } from './finish'
import { QuestionLookup, QuestionLookupError } from './questions'
import { EpisodeKeeper, type EpisodeStorePolicy } from './store'
import type { CreateEpisodeBody, FinishBody, StepBody, WireToolCall } from './wire'

/** A refusal with its HTTP status and the request field it is about. */
export class EnvServerError extends Error {
  constructor(readonly status: number, message: string, readonly field?: string) {
    super(message)
    this.name = 'EnvServerError'
  }
}

export interface SessionOptions {
  raw: SQLite.Database
  appVersion: string
  /** Scores evidence for SNC and answers when neither the environment nor the trainer did; the lexical stand-in by default. */
  answerer?: Answerer
  /** The server's reward; by default the environment family's (sp-f1 for Harness-G, the published Harness-1 reward). */
  reward?: RewardConfig
  /** The server's credit scheme; by default snc for the menu, outcome otherwise. */
  credit?: string
  /** An episode untouched this long is dropped (default 10 minutes). */
  idleTimeoutMs?: number
  /** Most open episodes (default 4096); creating one more is a 503. */
  maxEpisodes?: number
  /** Step cap per episode beyond the environment's own limit (default 200). */
  maxSteps?: number
  store?: EpisodeStorePolicy
  /** Clock for idle timeouts (tests pass their own). */
  now?: () => number
}

interface Session {
  id: string
  run: EpisodeRun
  question: StoredQuestion
  environment: string
  protocol: string
  config: Record<string, unknown>
  reward: RewardConfig
  credit: string
  groupId: string | undefined
  keep: boolean
  lastUsed: number
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

const SYSTEM_PROMPTS: Record<string, string> = {
  'sentence-menu': MENU_SYSTEM_PROMPT,
  'sentence-search': FREE_QUERY_SYSTEM_PROMPT,
  'harness1-tools': TOOLS_SYSTEM_PROMPT,
}

const RATE_WINDOW_S = 10

export class EpisodeSessions {
  private readonly sessions = new Map<string, Session>()
  private readonly ctx: EnvContext
  private readonly questions: QuestionLookup
  private readonly finishCtx: FinishContext
  private readonly keeper: EpisodeKeeper
  private readonly now: () => number
  private readonly idleTimeoutMs: number
  private readonly maxEpisodes: number
  private readonly counts = { created: 0, finished: 0, deleted: 0, expired: 0, steps: 0, errors: 0, stored: 0, storeRepeats: 0 }
  /** Steps completed per whole second, for the steps/s counter. */
  private readonly stepBuckets = new Map<number, number>()

  constructor(private readonly options: SessionOptions) {
    this.ctx = environmentContext(options.raw)
    this.questions = new QuestionLookup(options.raw)
    this.finishCtx = { raw: options.raw, evidence: new EvidenceResolver(options.raw), answerer: options.answerer ?? new LexicalAnswerer() }
    this.keeper = new EpisodeKeeper(options.raw, options.store ?? { mode: 'off' }, options.appVersion)
    this.now = options.now ?? Date.now
    this.idleTimeoutMs = options.idleTimeoutMs ?? 10 * 60_000
    this.maxEpisodes = options.maxEpisodes ?? 4096
    if (options.reward) checkRewardConfig(options.reward)
    if (options.credit && !creditNames().includes(options.credit)) throw new Error(`Unknown credit scheme "${options.credit}"; known: ${creditNames().join(', ')}`)
  }

  get answererName(): string {
    return this.finishCtx.answerer.name
  }

  /** Names, declarations and defaults of every registered environment, with the reward and credit this server gives each. */
  environments() {
    return environmentCatalog().map((e) => ({
      ...e,
      reward: this.options.reward ?? defaultReward(e.family),
      credit: this.options.credit ?? defaultCredit(e.protocol),
      systemPrompt: SYSTEM_PROMPTS[e.protocol] ?? null,
    }))
  }

  async create(body: CreateEpisodeBody) {
    this.sweep()
    if (this.sessions.size >= this.maxEpisodes) throw new EnvServerError(503, `${this.sessions.size} episodes are open, the most this server keeps: finish or delete some first`)
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
    if (credit !== 'outcome' && factory.protocol !== 'sentence-menu') throw new EnvServerError(400, `Credit "${credit}" needs the menu's previews: only sentence-menu environments (graph-menu) support it; use "outcome" for ${body.environment}`, 'credit')
    let question: StoredQuestion
    try {
      question = body.question_id !== undefined ? this.questions.byId(body.question_id) : this.questions.bySplit(body.split!, body.index!)
    } catch (err) {
      if (err instanceof QuestionLookupError) throw new EnvServerError(404, err.message, err.field)
      throw err
    }
    // The reward must be computable on this question's gold; left out, it follows that gold's level.
    const gold = goldProfile([question])
    const reward = body.reward ?? this.options.reward ?? defaultReward(factory.family, gold)
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
    const id = randomUUID()
    const keep = this.keeper.keeps(id)
    const needsCredit = credit !== 'outcome'
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
      config: resolvedConfig(body.environment, body.config),
      reward,
      credit,
      groupId: body.group_id,
      keep,
      lastUsed: this.now(),
      busy: false,
      answer,
    }
    this.sessions.set(id, session)
    this.counts.created++
    const actions = env.actions()
    return {
      episode_id: id,
      environment: body.environment,
      group_id: body.group_id ?? null,
      question: { id: question.rowId, text: question.question },
      messages: [
        { role: 'system' as const, content: SYSTEM_PROMPTS[factory.protocol] ?? '' },
        { role: 'user' as const, content: session.run.observation.text },
      ],
      action_kind: factory.actionKind,
      ...wireActions(actions, true),
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
      const step = await session.run.step(toAction(body), {}, { actions, previews }, { started, previews: tp - started, policy: 0 })
      this.counts.steps++
      const second = Math.floor(this.now() / 1000)
      this.stepBuckets.set(second, (this.stepBuckets.get(second) ?? 0) + 1)
      if (this.stepBuckets.size > 4 * RATE_WINDOW_S) for (const k of this.stepBuckets.keys()) if (k <= second - RATE_WINDOW_S) this.stepBuckets.delete(k)
      const done = session.run.done
      return {
        observation: session.run.observation.text,
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
      this.release(session)
    }
  }

  async finish(id: string, body: FinishBody) {
    const session = this.take(id)
    try {
      session.answer.text = body.answer
      // An episode the environment did not end was stopped by the trainer, or by the step cap.
      const trajectory = await session.run.finish(session.run.done ? 'step-cap' : 'stopped-by-trainer')
      const { reward, credit } = await rewardAndCredit(this.finishCtx, trajectory, session.reward, session.credit)
      let runId: number | null = null
      if (session.keep) {
        runId = this.keeper.save({ environment: session.environment, envConfig: session.config, reward: session.reward, credit: session.credit, answerer: { name: this.finishCtx.answerer.name, lexical: this.finishCtx.answerer.lexical } }, session.question.rowId, trajectory)
        if (runId === null) this.counts.storeRepeats++
        else this.counts.stored++
      }
      this.sessions.delete(id)
      this.counts.finished++
      return {
        episode_id: id,
        group_id: session.groupId ?? null,
        reward: reward.total,
        components: reward.components,
        missing_terms: reward.missing,
        credit_scheme: session.credit,
        per_step_credit: credit.map((c) => ({ total: c.total, frontier: c.frontier, enablement: c.enablement, gain: c.gain })),
        metrics: trajectory.metrics,
        answer: trajectory.answer,
        outcome: { turns: trajectory.outcome.turns, format_errors: trajectory.outcome.formatErrors, end_reason: trajectory.outcome.endReason, tools_used: trajectory.outcome.toolsUsed },
        stored_run_id: runId,
      }
    } catch (err) {
      // A failed finish leaves nothing half-open: the episode is gone either way.
      this.sessions.delete(id)
      throw err
    } finally {
      session.busy = false
    }
  }

  remove(id: string): void {
    const session = this.sessions.get(id)
    if (!session) throw new EnvServerError(404, `No open episode ${id} (finished, deleted or timed out)`)
    this.sessions.delete(id)
    this.counts.deleted++
  }

  /** Drops episodes idle longer than the timeout; returns how many. */
  sweep(): number {
    const cutoff = this.now() - this.idleTimeoutMs
    let n = 0
    for (const [id, s] of this.sessions) {
      if (!s.busy && s.lastUsed < cutoff) {
        this.sessions.delete(id)
        n++
      }
    }
    this.counts.expired += n
    return n
  }

  countError(): void {
    this.counts.errors++
  }

  counters(): EnvServerCounters {
    const second = Math.floor(this.now() / 1000)
    let recent = 0
    for (const [s, n] of this.stepBuckets) {
      if (s <= second - RATE_WINDOW_S) this.stepBuckets.delete(s)
      else recent += n
    }
    return { open: this.sessions.size, ...this.counts, stepsPerSecond: recent / RATE_WINDOW_S }
  }

  /** Ends the store's runs; open episodes are dropped. */
  close(): void {
    this.sessions.clear()
    this.keeper.close()
  }

  private take(id: string): Session {
    const session = this.sessions.get(id)
    if (!session) throw new EnvServerError(404, `No open episode ${id} (finished, deleted or timed out)`)
    if (session.busy) throw new EnvServerError(409, `Episode ${id} is busy with another request: send its steps one at a time`)
    if (this.now() - session.lastUsed > this.idleTimeoutMs) {
      this.sessions.delete(id)
      this.counts.expired++
      throw new EnvServerError(404, `Episode ${id} timed out after ${Math.round(this.idleTimeoutMs / 1000)} s idle`)
    }
    session.busy = true
    return session
  }

  private release(session: Session): void {
    session.busy = false
    session.lastUsed = this.now()
  }
}

function wireActions(actions: ActionSpace, withTools: boolean): { tools?: OpenAiTool[]; menu?: WireMenuItem[] } {
  if (actions.kind === 'menu') return { menu: actions.items.map((i) => ({ id: i.id, type: i.type, label: i.label, ...(i.features ? { features: i.features } : {}) })) }
  if (!withTools) return {}
  return { tools: actions.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } })) }
}

/** The wire action as the environment's Action; arguments that are not valid JSON go to the environment's parser, which records the format error. */
function toAction(body: StepBody): Action {
  if (body.menu_id !== undefined) return { kind: 'menu', id: body.menu_id }
  if (body.text !== undefined) return { kind: 'text', text: body.text }
  const call = body.tool_call as WireToolCall
  const { name, arguments: args } = 'function' in call ? call.function : call
  if (typeof args !== 'string') return { kind: 'tool', name, arguments: args }
  try {
    return { kind: 'tool', name, arguments: JSON.parse(args) as unknown }
  } catch {
    return { kind: 'text', text: `{"name": ${JSON.stringify(name)}, "arguments": ${args}}` }
  }
}
