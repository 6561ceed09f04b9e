/**
 * Candidates of Harness-1 (`harness1-tools`) for the head: a choice among whole tool calls, each built
 * deterministically from what the policy sees (question, candidate pool, curated set, search history,
 * evidence graph, last result), never from the gold. The head stands in for an LLM writing the calls:
 *
 * - search_corpus of the unsearched queries: the question's content words, its names, names with the
 *   question's relation words (the scripted policy's first-hop queries), bridge entities (evidence graph,
 *   names in the best documents' relation sentences) with and without the relation words, pool titles;
 * - fan_out_search of the first five of those, and of the bridge / title ones;
 * - grep_corpus of a bridge entity's or a question name's exact (escaped) name;
 * - read_document of the best uncurated documents not read yet; review_docs of the best curated ones;
 * - curate: the best uncurated document with each importance tag, the next best at high, the top three
 *   at high, the best at very_high while dropping the weak curated ones, and removals of weak curated
 *   documents;
 * - verify of the best curated documents against a claim built from the question;
 * - end_search.
 *
 * Every call is valid by construction (ids the episode has shown, removals of curated ids only, at most
 * five queries / documents, non-empty strings within the schema's limits, tools the harness offers), so
 * the head never makes a format error. At most HARNESS1_CANDIDATES candidates per decision.
 *
 * Each candidate carries features of how it was built (question-term coverage of a query, relevance and
 * retrieval rank of its documents, tag, whether its tool was used before, distinct tools used, pool and
 * curated sizes, budget used); the type is the tool, so the layout's type one-hot is the tool one-hot.
 *
 * The transcript baseline renders only the last result, so the builder the policy gets per episode
 * (forEpisode) remembers every document, search and curation it saw, mirroring the curated set with the
 * harness's own CuratedSet; a mirror that disagrees with the count the harness reports stops offering
 * removals. The stateful harness's observation is authoritative wherever it has the field.
 */
import { CuratedSet, IMPORTANCE_TAGS, MAX_FAN_OUT_QUERIES, MAX_REVIEW_DOCS, MAX_VERIFY_DOCS, STATEFUL_DEFAULTS, parseDocId, type ImportanceTag, type StatefulObservationData } from '../../harness'
import { harness1ContentTerms as contentTerms } from '../../harness'
import type { Action, ActionSpace, Observation } from '../../harness'
import { namesIn, readQuestion, firstHopQueries, type QuestionReading } from '../scripted/harness-1/questions'
import type { Candidate, CandidateBuilder } from './candidate'
import { squash, type FeatureLayout, type StateFeatures } from './features'

/** Most candidates offered per decision. */
export const HARNESS1_CANDIDATES = 24

export const HARNESS1_TOOLS = ['fan_out_search', 'search_corpus', 'grep_corpus', 'read_document', 'review_docs', 'curate', 'verify', 'end_search'] as const
type Tool = (typeof HARNESS1_TOOLS)[number]

const COMMON = ['uses', 'toolsUsed', 'budget'] as const
const SEARCH_FEATURES = ['coverage', 'precision', 'novel', 'fromQuestion', 'fromName', 'fromBridge', 'fromTitle', 'queries', 'words', 'rank', 'searches', 'lastNew', 'pool', 'curated', ...COMMON] as const
const GREP_FEATURES = ['fromBridge', 'fromQuestion', 'words', 'bridgeDocs', 'rank', 'pool', ...COMMON] as const
const READ_FEATURES = ['relevance', 'score', 'titleMatch', 'bridgeTitle', 'mentionsBridge', 'retrievalRank', 'fresh', 'rank', ...COMMON] as const
const REVIEW_FEATURES = ['docs', 'relevance', 'curatedShare', 'fresh', ...COMMON] as const
const CURATE_FEATURES = [
  'add', 'remove', 'docs', 'relevance', 'minRelevance', 'titleMatch', 'bridgeTitle', 'retrievalRank', 'fresh',
  'veryHigh', 'high', 'fair', 'low', 'removeRelevance', 'curated', 'pool', 'rank', ...COMMON,
] as const
const VERIFY_FEATURES = ['docs', 'relevance', 'curated', 'verifications', ...COMMON] as const
const END_FEATURES = ['curated', 'curatedRelevance', 'strongCurated', 'topUncurated', 'pool', 'searches', 'turn', ...COMMON] as const

export const HARNESS1_LAYOUT: FeatureLayout = {
  types: HARNESS1_TOOLS,
  blocks: {
    fan_out_search: SEARCH_FEATURES,
    search_corpus: SEARCH_FEATURES,
    grep_corpus: GREP_FEATURES,
    read_document: READ_FEATURES,
    review_docs: REVIEW_FEATURES,
    curate: CURATE_FEATURES,
    verify: VERIFY_FEATURES,
    end_search: END_FEATURES,
  },
}

/** Per-type caps (their sum is HARNESS1_CANDIDATES). */
const QUOTA: Record<Tool, number> = { search_corpus: 5, fan_out_search: 2, grep_corpus: 2, read_document: 2, review_docs: 1, curate: 9, verify: 1, end_search: 1 }
const MAX_QUERY_CHARS = 400
const MAX_PATTERN_CHARS = 200
const MAX_CLAIM_CHARS = 1000
/** Curated documents below this relevance are "weak" (the scripted policy's threshold for dropping auto-seeds). */
const WEAK = 0.34
const MAX_REMOVE = 10

interface Doc {
  id: string
  chunk: number
  title: string
  text: string
  /** 1-based rank in the result that surfaced it (1 for reads). */
  rank: number
  /** Turn it entered the pool. */
  turn: number
  /** Content terms of title and text (cached until the text grows). */
  terms?: Set<string>
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const queryKey = (q: string): string => [...new Set(contentTerms(q))].sort().join(' ') || q.trim().toLowerCase()
const idsKey = (ids: readonly string[]): string => [...ids].sort().join(',')
const tool = (name: Tool, args: Record<string, unknown>): Action => ({ kind: 'tool', name, arguments: args })

/** What one episode has shown so far, updated from each observation (and from the policy's own confirmed calls). */
class EpisodeMemory {
  readonly docs = new Map<string, Doc>()
  /** Documents read in full (read_document / review_docs details). */
  readonly full = new Set<string>()
  readonly uses: Partial<Record<Tool, number>> = {}
  readonly searched = new Set<string>()
  readonly grepped = new Set<string>()
  readonly read = new Set<string>()
  readonly reviewed = new Set<string>()
  readonly verified = new Set<string>()
  /** Transcript mode: the curated set as the harness keeps it, replayed from the policy's own calls. */
  private mirror: CuratedSet | null = null
  private mirrorReliable = true
  private pending: Action | null = null
  searches = 0
  lastNew = 0
  verifications = 0

  expect(action: Action): void {
    this.pending = action
  }

  observe(data: StatefulObservationData, actions: ActionSpace): void {
    const last = data.lastResult
    if (this.pending && last?.ok && this.pending.kind === 'tool' && last.tool === this.pending.name) this.confirm(this.pending, data)
    this.pending = null
    const learn = (id: string, title: string, text: string, rank: number, turn: number, full = false) => {
      const chunk = parseDocId(id)
      if (chunk === null) return
      const d = this.docs.get(id)
      if (!d) this.docs.set(id, { id, chunk, title, text, rank, turn })
      else if ((full && text !== d.text) || text.length > d.text.length) {
        d.text = text
        delete d.terms
      }
      if (full) this.full.add(id)
    }
    for (const p of data.pool ?? []) learn(p.id, p.title, p.summary, p.rank, p.turn)
    for (const c of data.curated ?? []) learn(c.id, c.title, c.summary, 1, c.turn)
    if (last?.ok) {
      last.items.forEach((i, k) => learn(i.id, i.title, i.text, k + 1, data.turn))
      for (const d of last.details) learn(d.id, d.title, d.text, 1, data.turn, true)
      // grep hits are listed only in the result text; near-duplicates were not admitted to the pool.
      if (last.tool === 'grep_corpus') {
        let k = 0
        for (const line of last.text.split('\n')) {
          const m = /^- (D\d+) (.*?)(?: \(near-duplicate of D\d+\))?: (.*)$/.exec(line)
          if (!m || line.includes('(near-duplicate of ')) continue
          learn(m[1]!, m[2]!, m[3]!, ++k, data.turn)
        }
      }
    }
    if (data.history) {
      for (const h of data.history) for (const q of h.queries) (h.tool === 'grep_corpus' ? this.grepped : this.searched).add(h.tool === 'grep_corpus' ? q : queryKey(q))
      const searches = data.history.filter((h) => h.tool !== 'grep_corpus')
      this.searches = Math.max(this.searches, searches.length)
      this.lastNew = searches.length ? searches[searches.length - 1]!.new : this.lastNew
    }
    if (data.verifications) {
      this.verifications = Math.max(this.verifications, data.verifications.length)
      for (const v of data.verifications) this.verified.add(idsKey(v.docIds))
    }
    if (!data.curated && !this.mirror) {
      const curate = actions.kind === 'tools' ? actions.tools.find((t) => t.name === 'curate') : undefined
      const props = (curate?.parameters as { properties?: Record<string, unknown> } | undefined)?.properties ?? {}
      this.mirror = new CuratedSet(STATEFUL_DEFAULTS.curatedCap, 'importance' in props)
    }
    if (last?.ok && this.mirror) {
      // The harness reports the curated count and cap after every curate call; a mirror that disagrees is not trusted.
      const m = /Curated set: (\d+)\/(\d+)\./.exec(last.text)
      if (m) {
        const [size, cap] = [Number(m[1]), Number(m[2])]
        if (cap !== this.mirror.cap) {
          // The cap is learnt from the first report; had it mattered already, the sizes disagree below.
          const entries = this.mirror.list()
          this.mirror = new CuratedSet(cap, this.mirror.tagged)
          for (const e of entries) this.mirror.add(e.chunkId, e.tag ?? 'fair', e.turn, e.via)
          if (entries.length > cap) this.mirrorReliable = false
        }
        if (size !== this.mirror.size) this.mirrorReliable = false
      }
    }
  }

  /** Applies a call the harness accepted. */
  private confirm(action: Action & { kind: 'tool' }, data: StatefulObservationData): void {
    const name = action.name as Tool
    const a = (action.arguments ?? {}) as Record<string, unknown>
    this.uses[name] = (this.uses[name] ?? 0) + 1
    if (name === 'search_corpus' || name === 'fan_out_search') {
      const qs = name === 'search_corpus' ? [String(a.query)] : (a.queries as string[])
      for (const q of qs) this.searched.add(queryKey(q))
      if (!data.history) {
        this.searches++
        this.lastNew = data.lastResult?.items.length ?? 0
      }
      const seeded = /Auto-seeded \d+ documents into the empty curated set at fair: ([^\n]*)\./.exec(data.lastResult?.text ?? '')
      if (seeded && this.mirror) {
        if (/ more$/.test(seeded[1]!)) this.mirrorReliable = false
        for (const id of seeded[1]!.replace(/ and \d+ more$/, '').split(', ')) {
          const chunk = parseDocId(id)
          if (chunk !== null) this.mirror.add(chunk, 'fair', data.turn, 'auto-seed')
        }
      }
    }
    if (name === 'grep_corpus') this.grepped.add(String(a.pattern))
    if (name === 'read_document') this.read.add(String(a.doc_id))
    if (name === 'review_docs') for (const id of a.doc_ids as string[]) this.reviewed.add(id)
    if (name === 'verify') {
      this.verified.add(idsKey(a.doc_ids as string[]))
      if (!data.verifications) this.verifications++
    }
    if (name === 'curate' && this.mirror) {
      for (const id of (a.remove_ids as string[] | undefined) ?? []) this.mirror.remove(parseDocId(id)!)
      for (const id of (a.add_ids as string[] | undefined) ?? []) this.mirror.add(parseDocId(id)!, (a.importance as ImportanceTag | undefined) ?? 'fair', data.turn, 'policy')
    }
  }

  /** Curated ids with their tags: the observation's when it shows them, else the mirror's. */
  curated(data: StatefulObservationData): Map<string, ImportanceTag | null> {
    if (data.curated) return new Map(data.curated.map((c) => [c.id, c.tag]))
    return new Map((this.mirror?.list() ?? []).map((e) => [`D${e.chunkId}`, e.tag]))
  }

  /** Whether removals can be offered: the observation shows the curated set, or the mirror is known to match it. */
  removalsSafe(data: StatefulObservationData): boolean {
    return Boolean(data.curated) || this.mirrorReliable
  }

  /** Tools used in accepted calls, from the policy's own record and what the observation shows. */
  used(data: StatefulObservationData): Set<string> {
    const used = new Set<string>(Object.keys(this.uses).filter((k) => (this.uses[k as Tool] ?? 0) > 0))
    for (const h of data.history ?? []) used.add(h.tool)
    if (data.verifications?.length) used.add('verify')
    if (data.curated?.some((c) => c.via === 'policy')) used.add('curate')
    if (data.lastResult?.ok && data.lastResult.tool) used.add(data.lastResult.tool)
    return used
  }

  useCount(tool: Tool, used: Set<string>): number {
    return Math.max(this.uses[tool] ?? 0, used.has(tool) ? 1 : 0)
  }
}

const dataOf = (observation: Observation): StatefulObservationData => observation.data as StatefulObservationData

function h1State(data: StatefulObservationData, curatedCount: number): StateFeatures {
  const left = Math.max(0, data.maxTurns - data.turn)
  return {
    turnsLeft: data.maxTurns > 0 ? left / data.maxTurns : 0,
    lastTurn: left <= 1 ? 1 : 0,
    committed: squash(curatedCount),
    hasCommitted: curatedCount > 0 ? 1 : 0,
  }
}

interface Ranked extends Doc {
  score: number
  titleMatch: number
  bridgeTitle: number
  mentionsBridge: number
  relevance: number
}

interface QueryIdea {
  query: string
  source: 'question' | 'name' | 'bridge' | 'title'
}

/** What every kind of candidate reads at one decision: the ranked documents, the bridges, and where candidates go. */
interface Decision {
  memory: EpisodeMemory
  data: StatefulObservationData
  reading: QuestionReading
  curated: ReturnType<EpisodeMemory['curated']>
  tagged: boolean
  docs: Doc[]
  bridges: string[]
  bridgeSet: Set<string>
  uncurated: Ranked[]
  curatedDocs: Ranked[]
  /** Adds a candidate unless its tool is unavailable, its quota is spent or the list is full. */
  push(t: Tool, args: Record<string, unknown>, label: string, features: Record<string, number>): void
}

/** Builds one decision's candidates from the memory and the observation, in a fixed order of kinds. */
function buildCandidates(memory: EpisodeMemory, data: StatefulObservationData, actions: ActionSpace): Candidate[] {
  if (actions.kind !== 'tools' || actions.tools.length === 0) return []
  const out: Candidate[] = []
  const decision = decisionOf(memory, data, actions, out)
  searchCandidates(decision)
  grepCandidates(decision)
  readingCandidates(decision)
  curationCandidates(decision)
  verifyCandidate(decision)
  endCandidate(decision)
  return out
}

function decisionOf(memory: EpisodeMemory, data: StatefulObservationData, actions: ActionSpace & { kind: 'tools' }, out: Candidate[]): Decision {
  const available = new Set(actions.tools.map((t) => t.name))
  const tagged = 'importance' in (((actions.tools.find((t) => t.name === 'curate')?.parameters as { properties?: Record<string, unknown> } | undefined)?.properties) ?? {})
  const reading = readQuestion(data.question)
  const curated = memory.curated(data)
  const used = memory.used(data)
  const toolsUsed = [...used].filter((t) => t !== 'end_search').length
  const budget = data.budget && Number.isFinite(data.budget.fraction) ? data.budget.fraction : 0
  const docs = [...memory.docs.values()]
  const common = (t: Tool) => ({ uses: memory.useCount(t, used), toolsUsed, budget })

  // Question match of every document, then the bridge names its best documents point to.
  const base = docs.map((d) => ({ d, ...questionMatch(reading, d) }))
  base.sort((a, b) => b.score + b.titleMatch - (a.score + a.titleMatch) || a.d.turn - b.d.turn || a.d.rank - b.d.rank || a.d.chunk - b.d.chunk)
  const bridges = bridgeNames(reading, base.slice(0, 3).map((x) => x.d), data, curated)
  const bridgeSet = new Set(bridges.map((b) => b.toLowerCase()))
  const ranked: Ranked[] = base.map(({ d, score, titleMatch }) => {
    const title = d.title.toLowerCase()
    const bridgeTitle = bridgeSet.has(title) ? 1 : 0
    const text = `${d.title} ${d.text}`.toLowerCase()
    const mentionsBridge = bridges.some((b) => text.includes(b.toLowerCase())) ? 1 : 0
    return { ...d, score, titleMatch, bridgeTitle, mentionsBridge, relevance: score + titleMatch + bridgeTitle + 0.25 * mentionsBridge }
  })
  ranked.sort((a, b) => b.relevance - a.relevance || a.turn - b.turn || a.rank - b.rank || a.chunk - b.chunk)
  const counts: Partial<Record<Tool, number>> = {}
  const push = (t: Tool, args: Record<string, unknown>, label: string, features: Record<string, number>) => {
    if (!available.has(t) || (counts[t] ?? 0) >= QUOTA[t] || out.length >= HARNESS1_CANDIDATES) return
    counts[t] = (counts[t] ?? 0) + 1
    out.push({ action: tool(t, args), type: t, label, features: { ...common(t), ...features, rank: counts[t]! } })
  }
  return {
    memory, data, reading, curated, tagged, docs, bridges, bridgeSet, push,
    uncurated: ranked.filter((d) => !curated.has(d.id)),
    curatedDocs: ranked.filter((d) => curated.has(d.id)),
  }
}

/** Searches: single queries from the question, its names, bridges and titles; fan-outs of several. */
function searchCandidates({ memory, reading, data, bridges, uncurated, docs, curated, push }: Decision): void {
  const ideas = queryIdeas(reading, data.question, bridges, uncurated, memory)
  const previousTerms = new Set<string>()
  for (const k of memory.searched) for (const t of k.split(' ')) previousTerms.add(t)
  const queryFeatures = (qs: QueryIdea[]) => {
    const terms = new Set(qs.flatMap((q) => contentTerms(q.query)))
    const inQuestion = [...terms].filter((t) => reading.terms.has(t)).length
    return {
      coverage: reading.terms.size ? [...reading.terms].filter((t) => terms.has(t)).length / reading.terms.size : 0,
      precision: terms.size ? inQuestion / terms.size : 0,
      novel: terms.size ? [...terms].filter((t) => !previousTerms.has(t)).length / terms.size : 0,
      fromQuestion: qs.filter((q) => q.source === 'question').length / qs.length,
      fromName: qs.filter((q) => q.source === 'name').length / qs.length,
      fromBridge: qs.filter((q) => q.source === 'bridge').length / qs.length,
      fromTitle: qs.filter((q) => q.source === 'title').length / qs.length,
      queries: qs.length,
      words: qs.reduce((n, q) => n + q.query.split(/\s+/).length, 0) / qs.length,
      searches: memory.searches,
      lastNew: memory.lastNew,
      pool: docs.length,
      curated: curated.size,
    }
  }
  for (const idea of ideas.slice(0, QUOTA.search_corpus)) push('search_corpus', { query: idea.query }, `search "${idea.query}"`, queryFeatures([idea]))
  const fanOuts: QueryIdea[][] = []
  const first = ideas.slice(0, MAX_FAN_OUT_QUERIES)
  if (first.length >= 2) fanOuts.push(first)
  const later = ideas.filter((q) => q.source === 'bridge' || q.source === 'title').slice(0, MAX_FAN_OUT_QUERIES)
  if (later.length >= 2 && idsKey(later.map((q) => q.query)) !== idsKey(first.map((q) => q.query))) fanOuts.push(later)
  for (const qs of fanOuts) push('fan_out_search', { queries: qs.map((q) => q.query) }, `fan out ${qs.map((q) => `"${q.query}"`).join(', ')}`, queryFeatures(qs))

}

/** Exact-name greps: bridge entities first, then the question's names. */
function grepCandidates({ memory, reading, data, bridges, bridgeSet, docs, push }: Decision): void {
  const questionNames = new Set(reading.names.map((n) => n.toLowerCase()))
  for (const name of [...bridges, ...reading.names]) {
    const pattern = escapeRegex(name)
    if (name.length < 3 || pattern.length > MAX_PATTERN_CHARS || memory.grepped.has(pattern)) continue
    const lower = name.toLowerCase()
    push('grep_corpus', { pattern }, `grep /${pattern}/`, {
      fromBridge: bridgeSet.has(lower) ? 1 : 0,
      fromQuestion: questionNames.has(lower) ? 1 : 0,
      words: name.split(/\s+/).length,
      bridgeDocs: data.evidenceGraph?.bridges.find((b) => b.entity.toLowerCase() === lower)?.docIds.length ?? 0,
      pool: docs.length,
    })
  }

}

/** Reading: the best unread documents one by one, and a review of several. */
function readingCandidates({ memory, data, curated, uncurated, curatedDocs, push }: Decision): void {
  const docFeatures = (d: Ranked) => ({
    relevance: d.relevance, score: d.score, titleMatch: d.titleMatch, bridgeTitle: d.bridgeTitle, mentionsBridge: d.mentionsBridge,
    retrievalRank: d.rank, fresh: d.turn === data.turn ? 1 : 0,
  })
  for (const d of uncurated.filter((x) => !memory.read.has(x.id) && !memory.full.has(x.id)).slice(0, QUOTA.read_document)) {
    push('read_document', { doc_id: d.id }, `read ${d.id} ${d.title}`, docFeatures(d))
  }
  const reviewPool = (curatedDocs.length ? curatedDocs : uncurated).slice(0, MAX_REVIEW_DOCS)
  if (reviewPool.length && reviewPool.some((d) => !memory.reviewed.has(d.id) && !memory.full.has(d.id))) {
    push('review_docs', { doc_ids: reviewPool.map((d) => d.id) }, `review ${reviewPool.map((d) => d.id).join(', ')}`, {
      docs: reviewPool.length,
      relevance: mean(reviewPool.map((d) => d.relevance)),
      curatedShare: reviewPool.filter((d) => curated.has(d.id)).length / reviewPool.length,
      fresh: reviewPool.filter((d) => d.turn === data.turn).length / reviewPool.length,
    })
  }

}

/** Curation: additions with each tag, grouped additions, removals of weak documents. */
function curationCandidates({ memory, data, curated, tagged, docs, uncurated, curatedDocs, push }: Decision): void {
  const weak = curatedDocs.filter((d) => d.relevance < WEAK).reverse().slice(0, MAX_REMOVE)
  const canRemove = memory.removalsSafe(data)
  const curate = (add: Ranked[], remove: Ranked[], tag: ImportanceTag | null) => {
    const args: Record<string, unknown> = {}
    if (add.length) args.add_ids = add.map((d) => d.id)
    if (remove.length) args.remove_ids = remove.map((d) => d.id)
    if (add.length && tag && tagged) args.importance = tag
    const t = tagged && add.length ? (tag ?? 'fair') : null
    const label = [add.length ? `add ${add.map((d) => d.id).join(', ')}${t ? ` at ${t}` : ''}` : '', remove.length ? `remove ${remove.map((d) => d.id).join(', ')}` : ''].filter(Boolean).join(', ')
    push('curate', args, `curate: ${label}`, {
      add: add.length,
      remove: remove.length,
      docs: add.length,
      relevance: add.length ? mean(add.map((d) => d.relevance)) : 0,
      minRelevance: add.length ? Math.min(...add.map((d) => d.relevance)) : 0,
      titleMatch: add.length ? mean(add.map((d) => d.titleMatch)) : 0,
      bridgeTitle: add.length ? mean(add.map((d) => d.bridgeTitle)) : 0,
      retrievalRank: add.length ? mean(add.map((d) => d.rank)) : 0,
      fresh: add.length ? add.filter((d) => d.turn === data.turn).length / add.length : 0,
      veryHigh: t === 'very_high' ? 1 : 0,
      high: t === 'high' ? 1 : 0,
      fair: t === 'fair' ? 1 : 0,
      low: t === 'low' ? 1 : 0,
      removeRelevance: remove.length ? mean(remove.map((d) => d.relevance)) : 0,
      curated: curated.size,
      pool: docs.length,
    })
  }
  const [d1, d2, d3] = uncurated
  if (d1) {
    if (tagged) for (const tag of IMPORTANCE_TAGS) curate([d1], [], tag)
    else curate([d1], [], null)
  }
  if (d2) curate([d2], [], 'high')
  if (d1 && d2 && d3) curate([d1, d2, d3], [], 'high')
  if (canRemove && weak.length) {
    if (d1) curate([d1], weak, 'very_high')
    curate([], weak, null)
    if (weak.length > 1) curate([], weak.slice(0, 1), null)
  }

}

/** Verification of the best curated documents (or the best retrieved ones before anything is curated). */
function verifyCandidate({ memory, data, curated, bridges, uncurated, curatedDocs, push }: Decision): void {
  const toVerify = (curatedDocs.length ? curatedDocs : uncurated).slice(0, MAX_VERIFY_DOCS)
  if (toVerify.length && !memory.verified.has(idsKey(toVerify.map((d) => d.id)))) {
    const bridge = bridges[0]
    const claim = (`${data.question.replace(/\?+\s*$/, '').trim()}${bridge ? ` (${bridge})` : ''}`.slice(0, MAX_CLAIM_CHARS).trim()) || 'The documents answer the question.'
    push('verify', { doc_ids: toVerify.map((d) => d.id), claim }, `verify ${toVerify.map((d) => d.id).join(', ')}`, {
      docs: toVerify.length,
      relevance: mean(toVerify.map((d) => d.relevance)),
      curated: curated.size,
      verifications: memory.verifications,
    })
  }

}

function endCandidate({ memory, data, reading, curated, docs, uncurated, curatedDocs, push }: Decision): void {
  push('end_search', { reasoning: `Curated ${curated.size} documents${reading.names.length ? ` covering ${reading.names.join(', ')}` : ''}.` }, 'end search', {
    curated: curated.size,
    curatedRelevance: curatedDocs.length ? mean(curatedDocs.map((d) => d.relevance)) : 0,
    strongCurated: curatedDocs.filter((d) => d.relevance >= 1).length,
    topUncurated: uncurated[0]?.relevance ?? 0,
    pool: docs.length,
    searches: memory.searches,
    turn: data.maxTurns > 0 ? data.turn / data.maxTurns : 0,
  })
}

const mean = (xs: readonly number[]): number => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0)

/** Share of the question's content terms the document has, plus 1 when its title is one of the question's names. */
function questionMatch(reading: QuestionReading, d: Doc): { score: number; titleMatch: number } {
  const terms = (d.terms ??= new Set(contentTerms(`${d.title} ${d.text}`)))
  let hit = 0
  for (const t of reading.terms) if (terms.has(t)) hit++
  const title = d.title.toLowerCase()
  const named = reading.names.some((n) => n.toLowerCase() === title || title.startsWith(`${n.toLowerCase()} (`))
  return { score: reading.terms.size ? hit / reading.terms.size : 0, titleMatch: named ? 1 : 0 }
}

/**
 * Second-hop names: names in the best documents' sentences that speak to the question's relation words,
 * then the evidence graph's bridge entities, then other names in the best documents; never the question's
 * own names or a best document's title. At most four.
 */
function bridgeNames(reading: QuestionReading, top: readonly Doc[], data: StatefulObservationData, curated: ReadonlyMap<string, unknown>): string[] {
  const own = new Set(reading.names.map((n) => n.toLowerCase()))
  for (const d of top) own.add(d.title.toLowerCase())
  const out: string[] = []
  const take = (n: string) => {
    const l = n.toLowerCase()
    if (out.length < 4 && l.length >= 3 && !own.has(l) && ![...own].some((o) => o.includes(l)) && !out.some((x) => x.toLowerCase() === l)) out.push(n)
  }
  const relation = new Set(reading.relation)
  const sentences = top.flatMap((d) => d.text.split(/(?<=[.!?])\s+/))
  const scored = sentences.map((s, i) => ({ s, i, hits: contentTerms(s).filter((t) => relation.has(t)).length })).filter((x) => x.hits > 0)
  scored.sort((a, b) => b.hits - a.hits || a.i - b.i)
  for (const { s } of scored) for (const n of namesIn(s, { sentence: true })) take(n)
  // Bridges joining curated documents first (the graph ranks them so), as the harness renders them.
  for (const b of data.evidenceGraph?.bridges ?? []) if (b.docIds.some((id) => curated.has(id)) || out.length < 2) take(b.entity)
  for (const s of sentences) for (const n of namesIn(s, { sentence: true })) take(n)
  return out
}

/** Unsearched query strings, best first: first-hop queries, bridge queries, titles of relevant documents. */
function queryIdeas(reading: QuestionReading, question: string, bridges: readonly string[], uncurated: readonly Ranked[], memory: EpisodeMemory): QueryIdea[] {
  const out: QueryIdea[] = []
  const keys = new Set<string>()
  const add = (raw: string, source: QueryIdea['source']) => {
    const query = raw.slice(0, MAX_QUERY_CHARS).trim()
    const key = queryKey(query)
    if (!query || memory.searched.has(key) || keys.has(key)) return
    keys.add(key)
    out.push({ query, source })
  }
  firstHopQueries(question).forEach((q, i) => add(q, i === 0 ? 'question' : 'name'))
  const relation = reading.relation.join(' ')
  for (const b of bridges) {
    if (relation) add(`${b} ${relation}`, 'bridge')
    add(b, 'bridge')
  }
  const own = new Set(reading.names.map((n) => n.toLowerCase()))
  for (const d of uncurated.slice(0, 4)) if (!own.has(d.title.toLowerCase())) add(d.title, 'title')
  return out
}

/** A builder over one memory: the per-episode builder keeps it; the shared one starts a fresh one each call. */
function memoryBuilder(memoryFor: () => EpisodeMemory): CandidateBuilder {
  return {
    protocol: 'harness1-tools',
    layout: HARNESS1_LAYOUT,
    state(observation) {
      const data = dataOf(observation)
      return h1State(data, data.curated ? data.curated.length : memoryFor().curated(data).size)
    },
    candidates(observation, actions) {
      const data = dataOf(observation)
      const memory = memoryFor()
      memory.observe(data, actions)
      return buildCandidates(memory, data, actions)
    },
    chosen(candidate) {
      memoryFor().expect(candidate.action)
    },
  }
}

function episodeBuilder(): CandidateBuilder {
  const memory = new EpisodeMemory()
  return memoryBuilder(() => memory)
}

/**
 * The Harness-1 builder. Used directly it reads each observation on its own (complete for the stateful
 * harness); the policy asks it for a per-episode builder that also remembers what the transcript hides.
 */
const oneShot = memoryBuilder(() => new EpisodeMemory())
export const harness1Candidates: CandidateBuilder = {
  protocol: oneShot.protocol,
  layout: oneShot.layout,
  state: oneShot.state,
  candidates: oneShot.candidates,
  forEpisode: episodeBuilder,
}
