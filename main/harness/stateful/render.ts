/**
 * Renders the inner tier for the policy within a token limit. When the full rendering does not fit,
 * it degrades in fixed steps (a shorter pool, shorter summaries, fewer recent turns, then question and
 * state only) and, as the last resort, truncates by tokens: the result never exceeds the limit.
 * Output is a list of named sections so replays and ablation tests can diff section by section.
 */
import { budgetMarker, budgetWarning, joinedCounter, SECTION_SEPARATOR, truncateToTokens, type BudgetWarning, type JoinedCounter, type TokenCounter } from './budget'
import { IMPORTANCE_TAGS } from './curated-set'
import type { EvidenceGraphView } from './evidence-graph'
import type { CuratedView, PoolEntry, SearchRecord, VerificationRecord } from './memory'
import { clipWords } from './text'

export const SECTION_NAMES = ['question', 'status', 'lastResult', 'curated', 'pool', 'evidenceGraph', 'verifications', 'history', 'budget'] as const
export type SectionName = (typeof SECTION_NAMES)[number] | 'truncated'

export interface ResultItem {
  id: string
  title: string
  text: string
}

export interface LastResultView {
  tool: string | null
  /** False for a format error. */
  ok: boolean
  /** Always shown (one or a few lines). */
  text: string
  /**
   * What the action returned item by item (new search results, grep hits). The stateful rendering
   * shows them through the pool instead; the transcript baseline appends them raw.
   */
  items: ResultItem[]
  /** Long material the action asked for (full passages of read_document / review_docs), always shown. */
  details: ResultItem[]
}

export interface RenderView {
  question: string
  turn: number
  maxTurns: number
  tools: string[]
  lastResult: LastResultView | null
  curated: CuratedView[]
  curatedCap: number
  tagged: boolean
  /** Candidates not in the curated set, most recent first. */
  pool: PoolEntry[]
  graph: EvidenceGraphView | null
  /** null when verification is switched off. */
  verifications: VerificationRecord[] | null
  history: SearchRecord[]
  markers: boolean
}

export interface RenderLimits {
  poolShown: number
  historyTurns: number
}

export interface RenderedSection {
  name: SectionName
  text: string
}

export interface RenderResult {
  text: string
  tokens: number
  limit: number
  tokenizer: string
  /** Degradation step used: 0 is the full rendering. */
  level: number
  levelName: string
  sections: RenderedSection[]
  warning: BudgetWarning | null
}

interface Step {
  name: string
  pool: number
  summaryWords: number
  curatedWords: number
  detailWords: number
  history: number
  verifications: number
  graphTop: number
  stateOnly?: boolean
}

const INF = Number.POSITIVE_INFINITY

function steps(limits: RenderLimits): Step[] {
  const P = limits.poolShown
  const H = limits.historyTurns
  const full: Step = { name: 'full', pool: P, summaryWords: INF, curatedWords: 30, detailWords: INF, history: H, verifications: INF, graphTop: INF }
  return [
    full,
    { ...full, name: 'shorter pool', pool: Math.ceil(P / 2) },
    { ...full, name: 'shorter pool', pool: Math.ceil(P / 4) },
    { ...full, name: 'shorter summaries', pool: Math.ceil(P / 4), summaryWords: 30, curatedWords: 0, detailWords: 150 },
    { ...full, name: 'shorter summaries', pool: Math.ceil(P / 4), summaryWords: 12, curatedWords: 0, detailWords: 50 },
    { ...full, name: 'fewer recent turns', pool: Math.ceil(P / 4), summaryWords: 12, curatedWords: 0, detailWords: 50, history: Math.min(H, 2), verifications: 2, graphTop: 3 },
    { ...full, name: 'fewer recent turns', pool: Math.min(3, P), summaryWords: 8, curatedWords: 0, detailWords: 20, history: 0, verifications: 0, graphTop: 0 },
    { ...full, name: 'question and state only', pool: 0, summaryWords: 0, curatedWords: 0, detailWords: 0, history: 0, verifications: 0, graphTop: 0, stateOnly: true },
  ]
}

/** `joined` counts joined sections (budget.ts joinedCounter; an environment keeps one so section counts are remembered). */
export function renderWorkingMemory(view: RenderView, limit: number, counter: TokenCounter, limits: RenderLimits, joined: JoinedCounter = joinedCounter(counter)): RenderResult {
  const all = steps(limits)
  for (const [level, step] of all.entries()) {
    const body = bodySections(view, step)
    const fitted = withMarker(body, view.markers, limit, joined)
    if (fitted.tokens <= limit) return { ...fitted, limit, tokenizer: counter.name, level, levelName: step.name }
  }
  // Last resort: the state-only rendering cut to the limit by tokens.
  const last = withMarker(bodySections(view, all[all.length - 1]!), view.markers, limit, joined)
  const text = truncateToTokens(last.text, limit, counter)
  const tokens = counter.count(text)
  return {
    text,
    tokens,
    limit,
    tokenizer: counter.name,
    level: all.length,
    levelName: 'truncated',
    sections: [{ name: 'truncated', text }],
    warning: view.markers ? budgetWarning(tokens, limit) : null,
  }
}

/** Joins sections and appends the marker; the marker reports the count of the text it ends up in. */
export function withMarker(
  body: RenderedSection[],
  markers: boolean,
  limit: number,
  joined: JoinedCounter,
): { text: string; tokens: number; sections: RenderedSection[]; warning: BudgetWarning | null } {
  const texts = (sections: RenderedSection[]) => sections.map((s) => s.text)
  if (!markers) return { text: texts(body).join(SECTION_SEPARATOR), tokens: joined(texts(body)), sections: body, warning: null }
  // The marker's own digits change the count; a few rounds reach the fixed point (or the count is
  // within a token of it, which the final recount reports honestly).
  let used = joined(texts(body))
  let sections = body
  let text = ''
  // The count of the text returned: the last round counted exactly that text (no recount: counting is most of a step's time).
  let tokens = used
  for (let round = 0; round < 4; round++) {
    sections = [...body, { name: 'budget', text: budgetMarker(used, limit) }]
    text = texts(sections).join(SECTION_SEPARATOR)
    tokens = joined(texts(sections))
    if (tokens === used) break
    used = tokens
  }
  return { text, tokens, sections, warning: budgetWarning(tokens, limit) }
}

function bodySections(view: RenderView, step: Step): RenderedSection[] {
  const out: RenderedSection[] = [
    { name: 'question', text: `# Question\n${view.question}` },
    { name: 'status', text: `# Status\nTurn ${view.turn + 1} of ${view.maxTurns}. Tools: ${view.tools.join(', ')}.` },
  ]
  if (view.lastResult && !step.stateOnly) out.push({ name: 'lastResult', text: lastResultText(view.lastResult, step) })
  out.push({ name: 'curated', text: curatedText(view, step) })
  if (step.stateOnly) {
    const counts = [`${view.pool.length} candidate documents not curated`]
    if (view.graph) counts.push(`${view.graph.bridgeCount} bridge entities`)
    if (view.verifications) counts.push(`${view.verifications.length} verifications`)
    out.push({ name: 'pool', text: `# Working memory\n${counts.join(', ')} (details hidden: context limit).` })
    return out
  }
  out.push({ name: 'pool', text: poolText(view.pool, step) })
  if (view.graph) out.push({ name: 'evidenceGraph', text: graphText(view.graph, step.graphTop) })
  if (view.verifications) out.push({ name: 'verifications', text: verificationText(view.verifications, step.verifications) })
  out.push({ name: 'history', text: historyText(view.history, step.history) })
  return out
}

function lastResultText(r: LastResultView, step: Step): string {
  const lines = [`# Last action${r.tool ? `: ${r.tool}` : ''}`, r.text]
  for (const d of r.details) lines.push(`## ${d.id} ${d.title}\n${step.detailWords === INF ? d.text : clipWords(d.text, step.detailWords)}`)
  return lines.join('\n')
}

function curatedText(view: RenderView, step: Step): string {
  const head = `# Curated set (${view.curated.length}/${view.curatedCap})`
  if (view.curated.length === 0) return `${head}\n(empty)`
  const line = (c: CuratedView) => {
    const clip = step.curatedWords > 0 && c.summary ? ` — ${clipWords(c.summary, step.curatedWords)}` : ''
    return `${c.id} ${c.title}${clip}`
  }
  if (step.stateOnly) {
    if (!view.tagged) return `${head}\n${view.curated.map((c) => c.id).join(', ')}`
    const lines = IMPORTANCE_TAGS.map((t) => [t, view.curated.filter((c) => c.tag === t)] as const)
      .filter(([, cs]) => cs.length > 0)
      .map(([t, cs]) => `${t}: ${cs.map((c) => c.id).join(', ')}`)
    return `${head}\n${lines.join('\n')}`
  }
  if (!view.tagged) return `${head}\n${view.curated.map((c) => `- ${line(c)}`).join('\n')}`
  const lines: string[] = [head]
  for (const tag of IMPORTANCE_TAGS) {
    const cs = view.curated.filter((c) => c.tag === tag)
    if (cs.length === 0) continue
    lines.push(`${tag}:`, ...cs.map((c) => `- ${line(c)}`))
  }
  return lines.join('\n')
}

function poolText(pool: PoolEntry[], step: Step): string {
  const shown = pool.slice(0, step.pool)
  const head = `# Candidate pool (${pool.length} not curated${shown.length < pool.length ? `, newest ${shown.length} shown` : ''})`
  if (pool.length === 0) return `${head}\n(empty)`
  const lines = shown.map((p) => {
    const summary = step.summaryWords === INF ? p.summary : clipWords(p.summary, step.summaryWords)
    return `- ${p.id} ${p.title}${summary ? ` — ${summary}` : ''}`
  })
  return [head, ...lines].join('\n')
}

function graphText(g: EvidenceGraphView, top: number): string {
  const shown = g.bridges.slice(0, top)
  const lines = [`# Evidence graph (${g.documents} documents)`]
  if (shown.length === 0) lines.push(g.bridgeCount > 0 ? `${g.bridgeCount} bridge entities (hidden: context limit)` : 'No entity is shared by two documents yet.')
  else {
    lines.push(`Bridge entities (${shown.length} of ${g.bridgeCount}):`)
    for (const b of shown) lines.push(`- ${b.entity}: ${b.docIds.join(', ')}`)
  }
  lines.push(`Single-document entities: ${g.singleDocEntities}`)
  return lines.join('\n')
}

function verificationText(records: VerificationRecord[], shown: number): string {
  const head = `# Verifications (${records.length})`
  if (records.length === 0) return `${head}\n(none)`
  const recent = shown === INF ? records : records.slice(Math.max(0, records.length - shown))
  const lines = recent.map((v) => `- T${v.turn} ${v.verdict} (${v.score.toFixed(2)}, ${v.lexical ? 'lexical check' : v.checker}) [${v.docIds.join(', ')}]: ${clipWords(v.claim, 40)}`)
  if (recent.length < records.length) lines.unshift(`(${records.length - recent.length} older not shown)`)
  return [head, ...lines].join('\n')
}

function historyText(history: SearchRecord[], shown: number): string {
  const head = '# Search history'
  if (history.length === 0) return `${head}\n(no searches yet)`
  const recent = history.slice(Math.max(0, history.length - shown))
  const lines = recent.map(
    (h) => `- T${h.turn} ${h.tool} ${JSON.stringify(h.queries.length === 1 ? h.queries[0] : h.queries)}: ${h.results} results, ${h.new} new, ${h.curated} curated${h.duplicates ? `, ${h.duplicates} near-duplicates` : ''}`,
  )
  if (recent.length < history.length) lines.unshift(`(${history.length - recent.length} earlier searches not shown)`)
  return [head, ...lines].join('\n')
}
