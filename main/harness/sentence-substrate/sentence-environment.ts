import { envCorpus, type Action, type ActionSpace, type EnvContext, type Environment, type EnvQuestion, type EpisodeOutcome, type MenuItem, type Observation, type Preview, type StepResult } from '../types'
import { LRUCache } from 'lru-cache'
import { extractEntities } from '../../graph/nlp'
import type { SubstrateConfig } from './config'
import { CorpusView } from './corpus'
import { Episode, type HistoryEntry, type KnownEntity, type ProvenanceEdge, type VisibleSentence } from './episode'
import { clip, sentenceItems, type BuiltItems } from './sentence-items'
import { Surfacer } from './surfacing'
import { parseMenuReply } from './menu-reply'

/** A sentence as the policy sees it. */
export type SentenceView = Pick<VisibleSentence, 'id' | 'handle' | 'documentId' | 'title' | 'ord' | 'text' | 'step' | 'via'>

/** fromSentence: the sentence whose surfacing first showed the entity (credit traces a LOOKUP back to the SELECT of it). */
export type EntityView = Pick<KnownEntity, 'handle' | 'ids' | 'name' | 'type' | 'visited' | 'step' | 'via' | 'fromSentence'>

/** Observation.data of both sentence environments (the free-query baseline adds `queries`). */
export type SentenceEnvData = {
  environment: string
  question: string
  turn: number
  turnLimit: number
  turnsLeft: number
  done: boolean
  endReason: string | null
  /** In commit order. */
  committed: SentenceView[]
  /** Visible and not committed, in the order they surfaced. */
  visible: SentenceView[]
  entities: EntityView[]
  /** SELECT, LOOKUP (menu only), ANSWER_WITH and ANSWER items with features and targets. */
  menu: MenuItem[]
  /** Free query only: the searches so far (as cut to the limit) and the limit. */
  queries?: string[]
  maxQueryChars?: number
}

/** The full state; `JSON.parse(JSON.stringify(s))` gives it back unchanged. */
export type SentenceEnvSnapshot = {
  environment: string
  config: Record<string, unknown>
  question: { id: string; question: string }
  seed: number
  turn: number
  done: boolean
  endReason: string | null
  formatErrors: number
  committed: number[]
  visible: VisibleSentence[]
  entities: KnownEntity[]
  /** Query keys already used (LOOKUPs and searches), sorted. */
  usedKeys: string[]
  history: HistoryEntry[]
  provenance: ProvenanceEdge[]
  menu: MenuItem[]
}

export type Resolved = { kind: 'item'; item: MenuItem } | { kind: 'search'; query: string; truncated: boolean } | { formatError: string }

/**
 * A JSON copy of plain data the environment built itself (snapshots, observations, recorded actions): it
 * must not alias the live state, and must be what storing it would keep. Not stored JSON, so no schema.
 */
const json = <T>(value: T): T => {
  const copy: T = JSON.parse(JSON.stringify(value))
  return copy
}

/** The entity keys a question names, by its text: every rollout of a group reads the same question, and the NLP pass is the dearest part of a reset. */
const questionEntityCache = new LRUCache<string, string[]>({ max: 10_000 })
function questionEntities(text: string): string[] {
  let keys = questionEntityCache.get(text)
  if (!keys) {
    keys = extractEntities(text).map((m) => m.canonical)
    questionEntityCache.set(text, keys)
  }
  return keys
}

/** Actions come from policies and models: keep a JSON copy in the history, never a live reference. */
function recordable(action: Action): Action {
  try {
    return json(action)
  } catch {
    return { kind: 'text', text: `[unserialisable ${action.kind} action]` }
  }
}

/**
 * What the menu environment and the free-query baseline share, so that they differ only in how new
 * sentences are found (a LOOKUP item vs a written query): the reset retrieval, SELECT / ANSWER_WITH /
 * ANSWER, turn accounting, format errors, snapshots and outcomes.
 */
export abstract class SentenceEnvironment<Config extends SubstrateConfig> implements Environment<SentenceEnvSnapshot> {
  abstract readonly name: string
  protected readonly corpus: CorpusView
  protected readonly surfacer: Surfacer
  protected ep: Episode | null = null
  protected menu: MenuItem[] = []
  protected previews = new Map<string, Preview>()

  constructor(
    ctx: EnvContext,
    readonly config: Config,
  ) {
    this.corpus = new CorpusView(envCorpus(ctx))
    this.surfacer = new Surfacer(this.corpus, ctx.retriever, config.searchMode)
  }

  abstract actions(): ActionSpace
  abstract render(): string
  /** Items this environment adds between the SELECT and the ANSWER items, with their previews. */
  protected abstract extraItems(ep: Episode): Promise<BuiltItems>
  protected abstract resolveTool(action: Extract<Action, { kind: 'tool' }>): Resolved
  /** Carries out a resolved action that is not SELECT, ANSWER_WITH or ANSWER. */
  protected abstract applyOther(ep: Episode, resolved: Exclude<Resolved, { formatError: string }>): Promise<Omit<HistoryEntry, 'turn' | 'action' | 'valid'>>
  protected abstract previewOther(ep: Episode, resolved: Exclude<Resolved, { formatError: string }>): Promise<Preview | null>

  /** Called after a sentence is committed; returns entity ids it made known. */
  protected afterCommit(_ep: Episode, _sentenceId: number, _via: string): number[] {
    return []
  }

  get done(): boolean {
    return this.ep?.done ?? false
  }

  async reset(question: EnvQuestion, seed: number): Promise<Observation> {
    // Before anything is read: what earlier episodes cached holds only while the corpus is unchanged.
    this.corpus.refresh()
    const ep = new Episode(question, seed, this.corpus)
    this.ep = ep
    this.surfacer.clear()
    if (this.config.questionEntities) {
      for (const canonical of questionEntities(question.question)) {
        for (const row of this.corpus.entitiesByCanonical(canonical)) ep.admitEntity(row, 'question', {})
      }
    }
    if (this.config.initialK > 0 && this.config.initialSentences > 0) {
      const first = await this.surfacer.retrieve(question.question, this.config.initialK)
      // The question's own ranking, not the focus order: take the best-matching sentences of the top chunks.
      ep.surface(first.ranked.slice(0, this.config.initialSentences), 'reset')
    }
    await this.rebuild(ep)
    return this.observation()
  }

  async step(action: Action): Promise<StepResult> {
    const t0 = performance.now()
    const ep = this.episode()
    if (ep.done) throw new Error(`${this.name}: the episode is over; reset() starts the next one`)
    const resolved = this.resolve(action)
    ep.turn++
    let entry: HistoryEntry
    if ('formatError' in resolved) {
      ep.formatErrors++
      entry = { turn: ep.turn, action: recordable(action), valid: false, formatError: resolved.formatError, summary: `format error: ${resolved.formatError}`, added: { sentenceIds: [], entityIds: [] } }
    } else {
      entry = { turn: ep.turn, action: recordable(action), valid: true, ...(await this.apply(ep, resolved)) }
    }
    ep.history.push(entry)
    if (!ep.done && ep.turn >= this.config.turnLimit) ep.end('turn-limit')
    if (ep.done) {
      this.menu = []
      this.previews = new Map()
    } else if (entry.valid) {
      // An invalid step changes nothing the menu depends on, so the menu stays as it was.
      await this.rebuild(ep)
    }
    return {
      observation: this.observation(),
      done: ep.done,
      info: {
        valid: entry.valid,
        ...(entry.formatError !== undefined ? { formatError: entry.formatError } : {}),
        summary: entry.summary + (ep.done && ep.endReason === 'turn-limit' ? ' (turn limit reached)' : ''),
        added: { sentenceIds: [...entry.added.sentenceIds], entityIds: [...entry.added.entityIds] },
        ms: performance.now() - t0,
      },
    }
  }

  async preview(action: Action): Promise<Preview | null> {
    const ep = this.episode()
    if (ep.done) return null
    const resolved = this.resolve(action)
    if ('formatError' in resolved) return null
    if (resolved.kind === 'item') {
      const p = this.previews.get(resolved.item.id)
      return p ? json(p) : null
    }
    return this.previewOther(ep, resolved)
  }

  /** One id of the current menu, read tolerantly (menu-reply.ts: a think block, "S2.", {"menu_id": "S2"}); ambiguous replies are format errors. */
  parse(text: string): Action | { formatError: string } {
    const reply = parseMenuReply(text, this.menu.map((i) => i.id))
    return 'id' in reply ? { kind: 'menu', id: reply.id } : reply
  }

  snapshot(): SentenceEnvSnapshot {
    const ep = this.episode()
    return json({
      environment: this.name,
      config: this.config,
      question: { id: ep.question.id, question: ep.question.question },
      seed: ep.seed,
      turn: ep.turn,
      done: ep.done,
      endReason: ep.endReason,
      formatErrors: ep.formatErrors,
      committed: ep.committed,
      visible: [...ep.visible.values()].sort((a, b) => a.handle - b.handle),
      entities: [...ep.entities.values()].sort((a, b) => a.handle - b.handle),
      usedKeys: [...ep.usedKeys].sort(),
      history: ep.history,
      provenance: ep.provenance,
      menu: this.menu,
    })
  }

  outcome(): EpisodeOutcome {
    const ep = this.episode()
    return {
      evidence: { sentenceIds: [...ep.committed] },
      seen: { sentenceIds: [...ep.visible.values()].sort((a, b) => a.handle - b.handle).map((s) => s.id) },
      ...this.queriedOutcome(ep),
      turns: ep.turn,
      formatErrors: ep.formatErrors,
      endReason: ep.endReason ?? 'running',
      toolsUsed: [...new Set(ep.history.filter((h) => h.valid && h.type).map((h) => h.type!))],
    }
  }

  /** The sentences the policy's own queries surfaced, for an environment where it writes them (free query). */
  protected queriedOutcome(_ep: Episode): Pick<EpisodeOutcome, 'queried'> {
    return {}
  }

  protected observation(): Observation {
    return { text: this.render(), data: this.observationData() }
  }

  protected observationData(): SentenceEnvData {
    const ep = this.episode()
    const view = (s: VisibleSentence): SentenceView => ({ id: s.id, handle: s.handle, documentId: s.documentId, title: s.title, ord: s.ord, text: s.text, step: s.step, via: s.via })
    return json({
      environment: this.name,
      question: ep.question.question,
      turn: ep.turn,
      turnLimit: this.config.turnLimit,
      turnsLeft: Math.max(0, this.config.turnLimit - ep.turn),
      done: ep.done,
      endReason: ep.endReason,
      committed: ep.committed.map((id) => view(ep.visible.get(id)!)),
      visible: [...ep.visible.values()].filter((s) => !ep.isCommitted(s.id)).map(view),
      entities: [...ep.entities.values()].map((e) => ({ handle: e.handle, ids: e.ids, name: e.name, type: e.type, visited: e.visited, step: e.step, via: e.via, ...(e.fromSentence !== undefined ? { fromSentence: e.fromSentence } : {}) })),
      menu: this.menu,
    })
  }

  protected episode(): Episode {
    if (!this.ep) throw new Error(`${this.name}: call reset() before using the environment`)
    return this.ep
  }

  protected resolve(action: Action): Resolved {
    if (typeof action !== 'object' || action === null) return { formatError: 'not an action object' }
    switch (action.kind) {
      case 'menu': {
        const item = typeof action.id === 'string' ? this.menu.find((i) => i.id === action.id) : undefined
        return item ? { kind: 'item', item } : { formatError: `${JSON.stringify(action.id)} is not in the current menu` }
      }
      case 'text': {
        if (typeof action.text !== 'string') return { formatError: 'text action without text' }
        const parsed = this.parse(action.text)
        return 'formatError' in parsed ? parsed : this.resolve(parsed)
      }
      case 'tool':
        return this.resolveTool(action)
      default:
        return { formatError: `unknown action kind ${JSON.stringify((action as { kind?: unknown }).kind)}` }
    }
  }

  private async apply(ep: Episode, resolved: Exclude<Resolved, { formatError: string }>): Promise<Omit<HistoryEntry, 'turn' | 'action' | 'valid'>> {
    if (resolved.kind === 'item') {
      const { item } = resolved
      const sentence = item.target?.sentence
      if ((item.type === 'SELECT' || item.type === 'ANSWER_WITH') && sentence) {
        ep.committed.push(sentence.id)
        const entityIds = this.afterCommit(ep, sentence.id, item.id)
        const answering = item.type === 'ANSWER_WITH'
        if (answering) ep.end('answer')
        const text = clip(ep.visible.get(sentence.id)!.text, 100)
        return {
          type: item.type,
          itemId: item.id,
          committed: sentence.id,
          summary: `${answering ? 'answered with' : 'selected'} #${sentence.handle}: ${text}`,
          added: { sentenceIds: [], entityIds },
        }
      }
      if (item.type === 'ANSWER') {
        ep.end('answer')
        return { type: 'ANSWER', itemId: item.id, summary: `answered with ${ep.committed.length} committed sentence(s)`, added: { sentenceIds: [], entityIds: [] } }
      }
    }
    return this.applyOther(ep, resolved)
  }

  private async rebuild(ep: Episode): Promise<void> {
    const { select, answer } = sentenceItems(ep, this.corpus, { ...this.config, reserved: this.config.lookupSentences })
    const extra = await this.extraItems(ep)
    this.menu = [...select.items, ...extra.items, ...answer.items]
    this.previews = new Map([...select.previews, ...extra.previews, ...answer.previews])
  }
}
