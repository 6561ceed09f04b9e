/**
 * A scripted tool-using policy for Harness-1: a fixed plan that exercises every tool and completes
 * episodes without any model. It reads only the question text and its observations, never the gold:
 *   1. fan_out_search with question-derived queries;
 *   2. curate the documents that match the question best (very_high), dropping weak auto-seeds;
 *   3. search_corpus for a bridge entity found in the best document (second hop);
 *   4. grep_corpus for that entity's exact name;
 *   5. read_document on the best new candidate;
 *   6. curate the best second-hop documents (high);
 *   7. verify a claim built from the question against the curated documents;
 *   8. review_docs on the top curated documents;
 *   9. end_search.
 * Steps whose tool the harness switched off are skipped. It keeps its own memory of results, so it
 * also runs on the transcript baseline, where the working memory is not rendered. It heeds the budget
 * markers' warnings when they are shown (at 75 % it skips the broad search and the review, at 90 % it
 * ends the search), and when a full curated set refuses a document it removes its weakest one and
 * curates the refused document again (with importance tags on, a higher tag evicts by itself).
 */
import type { Policy, PolicyDecision } from '../../../harness'
import type { Action, ActionSpace, EnvQuestion, Observation } from '../../../harness'
import { harness1ContentTerms as contentTerms } from '../../../harness'
import { firstHopQueries, namesIn, readQuestion, type QuestionReading } from './questions'

interface Known {
  id: string
  title: string
  text: string
  /** Turn the policy first saw it. */
  step: number
}

type Step = 'fan_out' | 'curate_first' | 'bridge_search' | 'grep' | 'read' | 'curate_second' | 'verify' | 'review' | 'end'
const PLAN: Step[] = ['fan_out', 'curate_first', 'bridge_search', 'grep', 'read', 'curate_second', 'verify', 'review', 'end']
const TOOL_OF: Record<Step, string> = {
  fan_out: 'fan_out_search',
  curate_first: 'curate',
  bridge_search: 'search_corpus',
  grep: 'grep_corpus',
  read: 'read_document',
  curate_second: 'curate',
  verify: 'verify',
  review: 'review_docs',
  end: 'end_search',
}

export interface ScriptedToolOptions {
  /** Documents curated at very_high in step 2. */
  firstHopCurate?: number
  /** Documents curated at high in step 6. */
  secondHopCurate?: number
}

export class ScriptedToolPolicy implements Policy {
  readonly name = 'scripted-tools'
  private question = ''
  private reading: QuestionReading = { names: [], relation: [], terms: new Set() }
  private known = new Map<string, Known>()
  private curated = new Set<string>()
  private next = 0
  private steps = 0
  private bridge: string | null = null
  private secondHop: string[] = []
  /** Bridge entities of the last rendered evidence graph, strongest first (absent when the graph is off). */
  private graphBridges: string[] = []
  /** Documents known after this act were found by the second hop. */
  private firstHopStep = 0
  /** The budget markers' last warning level (60, 75, 90), or null: none shown (or the markers are off). */
  private warning: number | null = null
  /** Documents a full curated set refused at the last curate call, and those already retried. */
  private refused: string[] = []
  private retried = new Set<string>()

  constructor(private readonly options: ScriptedToolOptions = {}) {}

  reset(episode: { seed: number; question: EnvQuestion }): void {
    this.question = episode.question.question
    this.reading = readQuestion(this.question)
    this.known = new Map()
    this.curated = new Set()
    this.next = 0
    this.steps = 0
    this.bridge = null
    this.secondHop = []
    this.firstHopStep = 0
    this.graphBridges = []
    this.warning = null
    this.refused = []
    this.retried = new Set()
  }

  async act(observation: Observation, actions: ActionSpace): Promise<PolicyDecision> {
    this.steps++
    this.observe(observation)
    const available = new Set(actions.kind === 'tools' ? actions.tools.map((t) => t.name) : [])
    const retry = this.retry()
    if (retry) return { action: retry }
    // "Finish now" at 90 %; at 75 % "stop broad searching" (the bridge search) and re-reading (the review).
    if ((this.warning ?? 0) >= 90) this.next = PLAN.indexOf('end')
    while (this.next < PLAN.length) {
      const step = PLAN[this.next++]!
      if (!available.has(TOOL_OF[step])) continue
      if ((this.warning ?? 0) >= 75 && (step === 'bridge_search' || step === 'review')) continue
      const action = this.plan(step)
      if (action) return { action }
    }
    return { action: { kind: 'tool', name: 'end_search', arguments: { reasoning: 'Plan complete.' } } }
  }

  private observe(o: Observation): void {
    const d = o.data as {
      lastResult?: { tool: string | null; ok: boolean; text?: string; items?: { id: string; title: string; text: string }[]; details?: { id: string; title: string; text: string }[] } | null
      budget?: { warning: number | null } | null
      pool?: { id: string; title: string; summary: string }[]
      curated?: { id: string; title: string; summary: string }[]
      evidenceGraph?: { bridges: { entity: string }[] } | null
    }
    const learn = (id: string, title: string, text: string) => {
      const k = this.known.get(id)
      if (!k) this.known.set(id, { id, title, text, step: this.steps })
      else if (text.length > k.text.length) k.text = text
    }
    for (const i of d.lastResult?.items ?? []) learn(i.id, i.title, i.text)
    for (const i of d.lastResult?.details ?? []) learn(i.id, i.title, i.text)
    for (const p of d.pool ?? []) learn(p.id, p.title, p.summary)
    for (const c of d.curated ?? []) learn(c.id, c.title, c.summary)
    if (d.curated) this.curated = new Set(d.curated.map((c) => c.id))
    if (d.evidenceGraph) this.graphBridges = d.evidenceGraph.bridges.map((b) => b.entity)
    this.warning = d.budget?.warning ?? null
    // "Curated set is full (n/cap): D7 not added ...": the refused documents are not curated.
    this.refused = d.lastResult?.tool === 'curate' && d.lastResult.ok ? [...(d.lastResult.text ?? '').matchAll(/(D\d+) not added/g)].map((m) => m[1]!) : []
    for (const id of this.refused) this.curated.delete(id)
  }

  /** A document a full curated set refused, curated again in place of the weakest curated one (once per document). */
  private retry(): Action | null {
    const again = this.refused.filter((id) => !this.retried.has(id))
    this.refused = []
    const weakest = this.ranked().filter((r) => this.curated.has(r.id)).at(-1)
    if (again.length === 0 || !weakest) return null
    again.forEach((id) => this.retried.add(id))
    this.curated.delete(weakest.id)
    again.forEach((id) => this.curated.add(id))
    return tool('curate', { add_ids: again, remove_ids: [weakest.id], importance: 'high' })
  }

  private plan(step: Step): Action | null {
    switch (step) {
      case 'fan_out':
        return tool('fan_out_search', { queries: firstHopQueries(this.question) })
      case 'curate_first': {
        const ranked = this.ranked()
        const top = ranked.filter((r) => r.score >= 0.5).slice(0, this.options.firstHopCurate ?? 3)
        const keep = new Set(top.map((r) => r.id))
        // Auto-seeded documents that match the question poorly are dropped to keep precision.
        const weak = [...this.curated].filter((id) => !keep.has(id) && this.score(this.known.get(id)) < 0.34)
        if (top.length === 0 && weak.length === 0) return null
        top.forEach((r) => this.curated.add(r.id))
        weak.forEach((id) => this.curated.delete(id))
        return tool('curate', { add_ids: top.map((r) => r.id), remove_ids: weak, importance: 'very_high' })
      }
      case 'bridge_search': {
        this.firstHopStep = this.steps
        this.bridge = this.findBridge()
        if (!this.bridge) return null
        return tool('search_corpus', { query: `${this.bridge} ${this.reading.relation.join(' ')}`.trim() })
      }
      case 'grep': {
        const target = this.bridge ?? this.reading.names[0]
        if (!target) return null
        return tool('grep_corpus', { pattern: escapeRegex(target) })
      }
      case 'read': {
        this.secondHop = this.secondHopCandidates()
        const first = this.secondHop[0]
        return first ? tool('read_document', { doc_id: first }) : null
      }
      case 'curate_second': {
        const add = this.secondHop.filter((id) => !this.curated.has(id)).slice(0, this.options.secondHopCurate ?? 2)
        if (add.length === 0) return null
        add.forEach((id) => this.curated.add(id))
        return tool('curate', { add_ids: add, importance: 'high' })
      }
      case 'verify': {
        const ids = this.topCurated(5)
        if (ids.length === 0) return null
        const claim = `${this.question.replace(/\?+\s*$/, '')}${this.bridge ? ` (${this.bridge})` : ''}`
        return tool('verify', { doc_ids: ids, claim })
      }
      case 'review': {
        const ids = this.topCurated(5)
        return ids.length ? tool('review_docs', { doc_ids: ids }) : null
      }
      case 'end':
        return tool('end_search', { reasoning: `Curated ${this.curated.size} documents covering ${this.reading.names.join(', ') || 'the question'}${this.bridge ? ` and the bridge ${this.bridge}` : ''}.` })
    }
  }

  /** Question match of a document: share of question terms it contains, plus a bonus when its title is a question name. */
  private score(k: Known | undefined): number {
    if (!k) return 0
    const terms = new Set(contentTerms(`${k.title} ${k.text}`))
    let hit = 0
    for (const t of this.reading.terms) if (terms.has(t)) hit++
    const base = this.reading.terms.size ? hit / this.reading.terms.size : 0
    const title = k.title.toLowerCase()
    const named = this.reading.names.some((n) => n.toLowerCase() === title || title.startsWith(`${n.toLowerCase()} (`))
    return base + (named ? 1 : 0)
  }

  private ranked(): { id: string; score: number }[] {
    return [...this.known.values()].map((k) => ({ id: k.id, score: this.score(k), step: k.step })).sort((a, b) => b.score - a.score || a.step - b.step)
  }

  private topCurated(n: number): string[] {
    return this.ranked()
      .filter((r) => this.curated.has(r.id))
      .slice(0, n)
      .map((r) => r.id)
  }

  /**
   * The second-hop entity: a name in the best curated document's sentences that mention the
   * question's relation words, other than the question's own names and the document's title.
   */
  private findBridge(): string | null {
    const own = new Set(this.reading.names.map((n) => n.toLowerCase()))
    const top = this.topCurated(3).map((id) => this.known.get(id)!)
    for (const k of top) own.add(k.title.toLowerCase())
    const fresh = (n: string) => !own.has(n.toLowerCase()) && ![...own].some((o) => o.includes(n.toLowerCase()))
    const relation = new Set(this.reading.relation)
    for (const k of top) {
      const scored = k.text
        .split(/(?<=[.!?])\s+/)
        .map((s) => ({ s, hits: contentTerms(s).filter((t) => relation.has(t)).length }))
        .filter((x) => x.hits > 0)
        .sort((a, b) => b.hits - a.hits)
      for (const { s } of scored) {
        const name = namesIn(s, { sentence: true }).find(fresh)
        if (name) return name
      }
    }
    // No sentence speaks to the relation: fall back to the evidence graph's strongest new bridge,
    // then to the first new name in the best document.
    const bridge = this.graphBridges.find(fresh)
    if (bridge) return bridge
    for (const k of top) {
      const name = k.text
        .split(/(?<=[.!?])\s+/)
        .flatMap((s) => namesIn(s, { sentence: true }))
        .find(fresh)
      if (name) return name
    }
    return null
  }

  /** Documents first seen after the first hop, best question-plus-bridge match first. */
  private secondHopCandidates(): string[] {
    const bridge = this.bridge?.toLowerCase()
    return [...this.known.values()]
      .filter((k) => !this.curated.has(k.id) && (k.step > this.firstHopStep || k.title.toLowerCase() === bridge))
      .map((k) => {
        const titleHit = bridge && k.title.toLowerCase() === bridge ? 2 : 0
        const mention = bridge && `${k.title} ${k.text}`.toLowerCase().includes(bridge) ? 0.5 : 0
        return { id: k.id, score: this.score(k) + titleHit + mention, step: k.step }
      })
      .sort((a, b) => b.score - a.score || a.step - b.step)
      .map((x) => x.id)
  }
}

function tool(name: string, args: Record<string, unknown>): Action {
  return { kind: 'tool', name, arguments: args }
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
