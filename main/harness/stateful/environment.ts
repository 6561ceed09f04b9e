/**
 * Harness-1 as an Environment: the policy makes semantic decisions through tool calls while the
 * environment keeps the working state (inner tier rendered each turn within a token budget, outer tier
 * of full texts). With `transcript: true` the same tools run, but the context is the append-only
 * transcript of raw observations (the paper's baseline).
 */
import type { SearchMode } from '../../retrieval'
import { envCorpus, type Action, type ActionSpace, type EnvContext, type EnvQuestion, type Environment, type EpisodeOutcome, type Observation, type Preview, type StepResult, type ToolSchema } from '../types'
import { budgetWarning, CL100K_COUNTER, joinedCounter, type JoinedCounter, type TokenCounter } from './budget'
import { parseStatefulConfig, type StatefulConfig } from './config'
import { docId, parseDocId } from './doc-ids'
import { Episode } from './episode'
import { buildEvidenceGraph } from './evidence-graph'
import { runTool } from './handlers'
import type { CuratedView } from './memory'
import { MinHasher } from './minhash'
import { ChunkStore } from './outer-tier'
import { parseToolCallText } from './parse'
import { renderWorkingMemory, type LastResultView, type RenderResult, type RenderView } from './render'
import type { BudgetView, StatefulObservationData, StatefulSnapshot } from './snapshot'
import { availableTools, toolSchemas, validateToolCall, type ToolCall } from './tools'
import { renderTranscript } from './transcript'
import type { ClaimChecker } from './verify'

/** Injectable parts that are code, not config (a run records their names). */
export interface StatefulHooks {
  /** Counts context tokens; default cl100k_base. Inject the policy's own tokenizer to budget in its units. */
  tokenCounter?: TokenCounter
  /** Checks verify() claims (e.g. an LLM judge); default the labelled lexical check. */
  claimChecker?: ClaimChecker
}

/** An EnvContext that may carry the hooks, so createEnvironment() can pass them through. */
export type StatefulContext = EnvContext & StatefulHooks

export class StatefulEnvironment implements Environment<StatefulSnapshot> {
  readonly config: StatefulConfig
  private readonly counter: TokenCounter
  /** Counts renderings section by section, remembering each section's count across levels and turns. */
  private readonly joined: JoinedCounter
  private readonly checker: ClaimChecker | null
  private readonly store: ChunkStore
  private readonly hasher: MinHasher
  private readonly tools: ToolSchema[]
  private readonly mode: SearchMode
  private episode: Episode | null = null
  private current: { snapshot: StatefulSnapshot; data: StatefulObservationData } | null = null

  constructor(
    private readonly ctx: StatefulContext,
    config: Record<string, unknown>,
    readonly name = 'stateful',
  ) {
    this.config = parseStatefulConfig(config)
    this.counter = ctx.tokenCounter ?? CL100K_COUNTER
    this.joined = joinedCounter(this.counter)
    this.checker = ctx.claimChecker ?? null
    this.store = new ChunkStore(envCorpus(ctx), ctx.retriever)
    this.hasher = new MinHasher({ permutations: this.config.minhashPermutations, shingle: this.config.minhashShingle, seed: this.config.minhashSeed })
    this.tools = toolSchemas(this.config)
    const vectors = ctx.retriever.vectorCount()
    if (this.config.searchMode === 'dense' && vectors === 0) {
      throw new Error('Harness-1 searchMode "dense" needs chunk vectors for the retriever\'s embedding model; build the dense index or use bm25 / hybrid / auto')
    }
    this.mode = this.config.searchMode === 'auto' ? (vectors > 0 ? 'hybrid' : 'bm25') : this.config.searchMode
  }

  get done(): boolean {
    return this.episode?.done ?? false
  }

  get tokenizer(): string {
    return this.counter.name
  }

  async reset(question: EnvQuestion, seed: number): Promise<Observation> {
    this.episode = new Episode(question, seed, this.config, this.store, this.hasher)
    this.capture()
    return this.observation()
  }

  actions(): ActionSpace {
    return { kind: 'tools', tools: this.episode && !this.episode.done ? this.tools : [] }
  }

  parse(text: string): Action | { formatError: string } {
    return parseToolCallText(text)
  }

  async step(action: Action): Promise<StepResult> {
    const ep = this.requireEpisode()
    const t0 = performance.now()
    if (ep.done) {
      return { observation: this.observation(), done: true, info: { valid: false, formatError: 'The episode has ended', summary: 'step after the end (ignored)', ms: 0 } }
    }
    ep.turn++
    const resolved = this.resolve(action)
    let summary: string
    let added: number[] = []
    let formatError: string | undefined
    let wallClockGuard: string | undefined
    if ('error' in resolved) formatError = resolved.error
    else {
      const r = await runTool(ep, resolved.call, { retriever: this.ctx.retriever, mode: this.mode, checker: this.checker })
      if (!r.ok) formatError = r.error
      else {
        ep.countTool(resolved.call.name)
        ep.lastResult = r.result
        added = r.added
        if (r.wallClockGuard) {
          wallClockGuard = r.wallClockGuard
          ep.wallClockGuards++
        }
        if (r.end) this.finish(ep, 'answer')
      }
    }
    if (formatError !== undefined) {
      ep.formatErrors++
      const tool = 'call' in resolved ? resolved.call.name : (resolved.name ?? null)
      ep.lastResult = { tool, ok: false, text: `Format error: ${formatError}`, items: [], details: [] }
      summary = `format error: ${formatError}`
    } else summary = this.summaryLine(ep.lastResult!)
    if (this.config.transcript) ep.transcript.push({ turn: ep.turn, action: actionText(action), observation: transcriptObservation(ep.lastResult!) })
    if (!ep.done && ep.turn >= this.config.maxTurns) this.finish(ep, 'turn-limit')
    // The transcript baseline ends when its context no longer fits (the stateful rendering always does).
    if (this.capture() && !ep.done) {
      this.finish(ep, 'budget')
      this.capture()
    }
    return {
      observation: this.observation(),
      done: ep.done,
      info: {
        valid: formatError === undefined,
        ...(formatError !== undefined ? { formatError } : {}),
        summary,
        ...(added.length ? { added: { chunkIds: added } } : {}),
        ms: performance.now() - t0,
        ...(wallClockGuard ? { wallClockGuard } : {}),
      },
    }
  }

  async preview(action: Action): Promise<Preview | null> {
    const ep = this.requireEpisode()
    const resolved = this.resolve(action)
    if ('error' in resolved) return { summary: `invalid: ${resolved.error}` }
    const call = resolved.call
    if (call.name === 'fan_out_search' || call.name === 'search_corpus') {
      const queries = call.name === 'fan_out_search' ? call.arguments.queries : [call.arguments.query]
      const exclude = ep.excluded()
      const ids = new Set<number>()
      for (const q of queries) for (const h of (await this.ctx.retriever.search(q, this.config.resultsPerQuery, this.mode, { excludeChunkIds: exclude, snippets: false })).hits) ids.add(h.chunkId)
      return { chunkIds: [...ids], summary: `${ids.size} unseen results (before near-duplicate suppression)` }
    }
    if (call.name === 'read_document') {
      const id = parseDocId(call.arguments.doc_id)
      return id !== null && !ep.isSeen(id) ? { chunkIds: [id], summary: `reads ${docId(id)}, not seen yet` } : { chunkIds: [], summary: 'reads a document already seen' }
    }
    if (call.name === 'grep_corpus') return { summary: `regex /${call.arguments.pattern}/i over passage text` }
    if (call.name === 'curate') return { summary: `curate: +${call.arguments.add_ids?.length ?? 0} / -${call.arguments.remove_ids?.length ?? 0}` }
    return { summary: `${call.name} adds no new documents` }
  }

  snapshot(): StatefulSnapshot {
    if (!this.current) throw new Error('snapshot() before reset()')
    return structuredClone(this.current.snapshot)
  }

  render(): string {
    if (!this.current) throw new Error('render() before reset()')
    return this.current.snapshot.rendered.text
  }

  outcome(): EpisodeOutcome {
    const ep = this.requireEpisode()
    return {
      evidence: { chunkIds: ep.curated.ids() },
      seen: { chunkIds: [...ep.pool.keys()] },
      turns: ep.turn,
      formatErrors: ep.formatErrors,
      endReason: ep.endReason ?? 'running',
      // Distinct tools used in valid calls (the reward's U counts those other than end_search).
      toolsUsed: ep.toolsUsed(),
      ...(ep.wallClockGuards > 0 ? { wallClockGuards: ep.wallClockGuards } : {}),
    }
  }

  private requireEpisode(): Episode {
    if (!this.episode) throw new Error('Call reset() before using the environment')
    return this.episode
  }

  private finish(ep: Episode, reason: string): void {
    ep.done = true
    ep.endReason = reason
  }

  private resolve(action: Action): { call: ToolCall } | { error: string; name?: string } {
    let name: unknown
    let args: unknown
    if (action.kind === 'text') {
      const parsed = parseToolCallText(action.text)
      if ('formatError' in parsed) return { error: parsed.formatError }
      if (parsed.kind !== 'tool') return { error: 'Expected a tool call' }
      name = parsed.name
      args = parsed.arguments
    } else if (action.kind === 'tool') {
      name = action.name
      args = action.arguments
    } else return { error: `This environment takes tool calls, not menu ids (got "${String((action as { id?: unknown }).id)}")` }
    const v = validateToolCall(name, args, this.config)
    return v.ok ? { call: v.call } : { error: v.error, ...(typeof name === 'string' ? { name } : {}) }
  }

  private summaryLine(r: LastResultView): string {
    return `${r.tool}: ${r.text.split('\n')[0]}`
  }

  /** Renders the current state and freezes it as what the policy sees; returns true on transcript overflow. */
  private capture(): boolean {
    const ep = this.requireEpisode()
    const cfg = this.config
    const tools = ep.done ? [] : availableTools(cfg)
    const curatedIds = new Set(ep.curated.ids())
    const curated: CuratedView[] = ep.curated.list().map((c) => {
      const p = ep.pool.get(c.chunkId)!
      return { id: docId(c.chunkId), chunkId: c.chunkId, title: p.title, tag: c.tag, via: c.via, turn: c.turn, summary: p.summary }
    })
    const byTag = ep.curated.byTag()
    const curatedByTag = Object.fromEntries(Object.entries(byTag).map(([t, cs]) => [t, cs.map((c) => docId(c.chunkId))])) as StatefulSnapshot['curatedByTag']
    const poolAll = [...ep.pool.values()]
    // Newest turn first; within a turn, result order.
    const pool = poolAll.filter((p) => !curatedIds.has(p.chunkId)).sort((a, b) => b.turn - a.turn)
    const graph = cfg.evidenceGraph ? buildEvidenceGraph(poolAll.map((p) => ep.outer.get(p.chunkId)!), curatedIds, cfg.graphTopEntities) : null
    const history = ep.history.map((h) => ({ ...h, queries: [...h.queries], newIds: [...h.newIds], curated: h.newIds.filter((id) => curatedIds.has(parseDocId(id)!)).length }))
    const verifications = cfg.verification ? ep.verifications.map((v) => structuredClone(v)) : null
    const lastResult = ep.lastResult ? structuredClone(ep.lastResult) : null

    let rendered: RenderResult
    let overflow = false
    if (cfg.transcript) {
      const r = renderTranscript(ep.question.question, ep.transcript, cfg.budgetMarkers, cfg.contextTokens, this.counter, this.joined)
      rendered = r
      overflow = r.overflow
    } else {
      const view: RenderView = {
        question: ep.question.question,
        turn: ep.turn,
        maxTurns: cfg.maxTurns,
        tools,
        lastResult,
        curated,
        curatedCap: cfg.curatedCap,
        tagged: cfg.importanceTags,
        pool,
        graph,
        verifications,
        history,
        markers: cfg.budgetMarkers,
      }
      rendered = renderWorkingMemory(view, cfg.contextTokens, this.counter, { poolShown: cfg.poolShown, historyTurns: cfg.historyTurns }, this.joined)
    }
    const budget: BudgetView = {
      used: rendered.tokens,
      limit: rendered.limit,
      fraction: rendered.limit > 0 ? rendered.tokens / rendered.limit : 1,
      warning: budgetWarning(rendered.tokens, rendered.limit)?.level ?? null,
      tokenizer: rendered.tokenizer,
      level: rendered.level,
      levelName: rendered.levelName,
    }
    const mode = cfg.transcript ? 'transcript' : 'stateful'
    // The policy sees its context budget only through the markers: with them off it is not told (the snapshot keeps the count).
    const common = { question: ep.question.question, turn: ep.turn, maxTurns: cfg.maxTurns, done: ep.done, endReason: ep.endReason, tools, lastResult, budget: cfg.budgetMarkers ? budget : null }
    const data: StatefulObservationData = cfg.transcript
      ? { mode, ...common }
      : { mode, ...common, curated, curatedByTag, pool, evidenceGraph: graph, verifications, history }
    const snapshot: StatefulSnapshot = {
      environment: this.name,
      mode,
      config: { ...cfg },
      questionId: ep.question.id,
      question: ep.question.question,
      seed: ep.seed,
      turn: ep.turn,
      maxTurns: cfg.maxTurns,
      done: ep.done,
      endReason: ep.endReason,
      endReasoning: ep.endReasoning,
      tools,
      curated,
      curatedByTag,
      pool,
      seen: poolAll.map((p) => p.id),
      duplicates: [...ep.duplicates.values()].map((d) => ({ id: docId(d.chunkId), duplicateOf: docId(d.duplicateOf), similarity: d.similarity })),
      evidenceGraph: graph,
      verifications,
      history,
      lastResult,
      budget,
      toolCounts: { ...ep.toolCounts },
      formatErrors: ep.formatErrors,
      outerTier: ep.outer.ids().map(docId),
      transcript: cfg.transcript ? ep.transcript.map((e) => ({ ...e })) : null,
      rendered: { text: rendered.text, tokens: rendered.tokens, sections: rendered.sections },
    }
    this.current = { snapshot, data }
    return overflow
  }

  private observation(): Observation {
    const c = this.current!
    return { text: c.snapshot.rendered.text, data: structuredClone(c.data) }
  }
}

function actionText(action: Action): string {
  if (action.kind === 'text') return action.text
  if (action.kind === 'tool') return JSON.stringify({ name: action.name, arguments: action.arguments ?? {} })
  return JSON.stringify(action)
}

/** The raw observation the transcript appends: the result text, every returned item, every passage read. */
function transcriptObservation(r: LastResultView): string {
  const parts = [r.text]
  for (const item of r.items) parts.push(`[${item.id}] ${item.title}\n${item.text}`)
  for (const d of r.details) parts.push(`[${d.id}] ${d.title}\n${d.text}`)
  return parts.join('\n\n')
}
