/**
 * What each Harness-1 tool does to the episode. Handlers validate ids against the episode (unknown
 * or never-retrieved ids are format errors that leave the state untouched) and describe their result
 * for the policy; the environment turns that into observations, transcript entries and step info.
 */
import { RetrievalError, type Retriever, type SearchMode } from '../../retrieval'
import type { CurateOutcome, ImportanceTag } from './curated-set'
import { docId, parseDocId } from './doc-ids'
import type { Episode } from './episode'
import type { LastResultView, ResultItem } from './render'
import type { PoolEntry } from './memory'
import type { ToolCall } from './tools'
import { LEXICAL_CHECKER_NAME, lexicalCheck, type ClaimChecker, type ClaimCheckResult, type VerifyPassage } from './verify'

export interface HandlerDeps {
  retriever: Retriever
  mode: SearchMode
  checker: ClaimChecker | null
}

export type HandlerResult =
  /** `wallClockGuard`: a wall-clock safety net cut the result short (it then depends on machine load). */
  | { ok: true; result: LastResultView; added: number[]; end?: boolean; wallClockGuard?: string }
  | { ok: false; error: string }

const ID_LIST_SHOWN = 12

export async function runTool(ep: Episode, call: ToolCall, deps: HandlerDeps): Promise<HandlerResult> {
  try {
    switch (call.name) {
      case 'fan_out_search':
        return await search(ep, deps, 'fan_out_search', call.arguments.queries)
      case 'search_corpus':
        return await search(ep, deps, 'search_corpus', [call.arguments.query])
      case 'grep_corpus':
        return grep(ep, deps, call.arguments.pattern)
      case 'read_document':
        return readDocument(ep, call.arguments.doc_id)
      case 'review_docs':
        return reviewDocs(ep, call.arguments.doc_ids)
      case 'curate':
        return curate(ep, call.arguments.add_ids ?? [], call.arguments.remove_ids ?? [], call.arguments.importance ?? 'fair')
      case 'verify':
        return await verify(ep, deps, call.arguments.doc_ids, call.arguments.claim)
      case 'end_search':
        ep.endReasoning = call.arguments.reasoning
        return { ok: true, added: [], end: true, result: view('end_search', `Search ended with ${ep.curated.size} curated documents.`) }
    }
  } catch (err) {
    // Bad patterns and ids the corpus does not hold are the policy's mistakes; anything else is a bug.
    if (err instanceof RetrievalError && (err.code === 'invalid-regex' || err.code === 'bad-argument' || err.code === 'not-found')) {
      return { ok: false, error: `${call.name}: ${err.message}` }
    }
    throw err
  }
}

function view(tool: string, text: string, items: ResultItem[] = [], details: ResultItem[] = []): LastResultView {
  return { tool, ok: true, text, items, details }
}

function idList(ids: string[]): string {
  return ids.length <= ID_LIST_SHOWN ? ids.join(', ') : `${ids.slice(0, ID_LIST_SHOWN).join(', ')} and ${ids.length - ID_LIST_SHOWN} more`
}

async function search(ep: Episode, deps: HandlerDeps, tool: 'fan_out_search' | 'search_corpus', queries: string[]): Promise<HandlerResult> {
  const k = ep.config.resultsPerQuery
  const exclude = ep.excluded()
  // The queries of one call run against the same exclusion set, as if in parallel.
  const lists: { query: string; chunkIds: number[] }[] = []
  const notes: string[] = []
  let usedMode: string = deps.mode
  for (const query of queries) {
    const r = await deps.retriever.search(query, k, deps.mode, { excludeChunkIds: exclude })
    if (r.fallback) usedMode = 'bm25'
    if (r.matchExpression === null && r.hits.length === 0) notes.push(`"${query}" has no searchable terms`)
    lists.push({ query, chunkIds: r.hits.map((h) => h.chunkId) })
  }
  // Interleave by rank so every query's best hits come first.
  const merged: { chunkId: number; query: string }[] = []
  const taken = new Set<number>()
  for (let rank = 0; rank < k; rank++) {
    for (const l of lists) {
      const id = l.chunkIds[rank]
      if (id !== undefined && !taken.has(id)) (taken.add(id), merged.push({ chunkId: id, query: l.query }))
    }
  }
  const fresh: PoolEntry[] = []
  const dups: string[] = []
  for (const [i, m] of merged.entries()) {
    const a = ep.admit(m.chunkId, { query: m.query, tool, rank: i + 1 }, { dedup: true })
    if (a.kind === 'new') fresh.push(a.entry)
    else if (a.kind === 'duplicate') dups.push(`${docId(a.duplicate.chunkId)} ≈ ${docId(a.duplicate.duplicateOf)}`)
  }
  ep.history.push({
    turn: ep.turn,
    tool,
    queries: [...queries],
    mode: usedMode,
    results: merged.length,
    new: fresh.length,
    duplicates: dups.length,
    newIds: fresh.map((e) => e.id),
    curated: 0,
  })

  const lines = [
    `${queries.length === 1 ? '1 query' : `${queries.length} queries`} (${usedMode}): ${merged.length} results, ${fresh.length} new${fresh.length ? `: ${idList(fresh.map((e) => e.id))}` : ''}.`,
  ]
  if (dups.length) lines.push(`${dups.length} near-duplicate${dups.length === 1 ? '' : 's'} suppressed (${dups.slice(0, 5).join('; ')}).`)
  if (notes.length) lines.push(`${notes.join('; ')}.`)
  if (fresh.length === 0) lines.push('Nothing new: try other terms, an exact name with grep_corpus, or review what you have.')
  const seeded = autoSeed(ep, fresh)
  if (seeded.length) lines.push(`Auto-seeded ${seeded.length} documents into the empty curated set at fair: ${idList(seeded)}.`)
  const items = fresh.map((e) => ({ id: e.id, title: e.title, text: e.summary }))
  return { ok: true, added: fresh.map((e) => e.chunkId), result: view(tool, lines.join('\n'), items) }
}

/** The first search that returns anything new seeds an empty curated set with its top results, once. */
function autoSeed(ep: Episode, fresh: PoolEntry[]): string[] {
  if (!ep.config.autoSeed || ep.autoSeedSpent || fresh.length === 0) return []
  ep.autoSeedSpent = true
  if (ep.curated.size > 0) return []
  const seeded: string[] = []
  for (const e of fresh.slice(0, ep.config.autoSeedCount)) {
    const o = ep.curated.add(e.chunkId, 'fair', ep.turn, 'auto-seed')
    if (o.kind === 'added') seeded.push(e.id)
  }
  return seeded
}

function grep(ep: Episode, deps: HandlerDeps, pattern: string): HandlerResult {
  // The scan stops on work (characters scanned), so the result depends on the seed alone; the time budget is only a safety net.
  const r = deps.retriever.grep(pattern, {
    flags: 'i',
    maxResults: ep.config.grepMaxResults,
    maxScanChars: ep.config.grepScanChars,
    timeBudgetMs: ep.config.grepTimeBudgetMs,
    contextChars: 80,
  })
  const query = pattern.replace(/\\[a-zA-Z]|[^\p{L}\p{N}]+/gu, ' ')
  const fresh: PoolEntry[] = []
  const hitLines: string[] = []
  const chunks = new Set<number>()
  let dupCount = 0
  for (const [i, h] of r.hits.entries()) {
    chunks.add(h.chunkId)
    const a = ep.admit(h.chunkId, { query, tool: 'grep_corpus', rank: i + 1 }, { dedup: true })
    if (a.kind === 'new') fresh.push(a.entry)
    if (a.kind === 'duplicate') dupCount++
    const mark = a.kind === 'duplicate' ? ` (near-duplicate of ${docId(a.duplicate.duplicateOf)})` : ''
    hitLines.push(`- ${docId(h.chunkId)} ${h.title}${mark}: ${h.context.replace(/\s+/g, ' ')}`)
  }
  ep.history.push({
    turn: ep.turn,
    tool: 'grep_corpus',
    queries: [pattern],
    mode: 'grep',
    results: chunks.size,
    new: fresh.length,
    duplicates: dupCount,
    newIds: fresh.map((e) => e.id),
    curated: 0,
  })
  const flags = [
    r.truncated ? 'more matches exist' : '',
    r.scanBudgetSpent ? `stopped after scanning ${r.scannedChars.toLocaleString('en-US')} characters: narrow the pattern` : '',
    r.timedOut ? 'stopped at the time guard' : '',
  ].filter(Boolean)
  const head = `/${pattern}/i: ${r.hits.length} matches in ${chunks.size} passages, ${fresh.length} new${flags.length ? ` (${flags.join(', ')})` : ''}.`
  const text = r.hits.length ? [head, ...hitLines].join('\n') : `${head}\nNo match: check the spelling or loosen the pattern.`
  const guard = r.timedOut ? `grep_corpus stopped at its ${ep.config.grepTimeBudgetMs} ms wall-clock guard after ${r.scannedChunks} passages` : undefined
  return { ok: true, added: fresh.map((e) => e.chunkId), result: view('grep_corpus', text), ...(guard ? { wallClockGuard: guard } : {}) }
}

function readDocument(ep: Episode, raw: string): HandlerResult {
  const chunkId = parseDocId(raw)
  if (chunkId === null || !ep.outer.inCorpus(chunkId)) return { ok: false, error: `read_document: there is no document ${raw} in this corpus` }
  const a = ep.admit(chunkId, { query: ep.question.question, tool: 'read_document', rank: 1 }, { dedup: false })
  const chunk = ep.outer.get(chunkId)!
  const others = chunk.documentChunkIds.filter((c) => c !== chunkId).map(docId)
  const where = chunk.documentChunkIds.length > 1 ? ` (passage ${chunk.documentChunkIds.indexOf(chunkId) + 1} of ${chunk.documentChunkIds.length} of "${chunk.title}"; others: ${idList(others)})` : ''
  return {
    ok: true,
    added: a.kind === 'new' ? [chunkId] : [],
    result: view('read_document', `Read ${docId(chunkId)}${where}.`, [], [{ id: docId(chunkId), title: chunk.title, text: chunk.text }]),
  }
}

/** Resolves ids that must name documents already shown in this episode. */
function seenIds(ep: Episode, tool: string, raw: string[]): { ok: true; ids: number[] } | { ok: false; error: string } {
  const ids: number[] = []
  const bad: string[] = []
  for (const r of raw) {
    const id = parseDocId(r)
    if (id === null || !ep.isSeen(id)) bad.push(r)
    else if (!ids.includes(id)) ids.push(id)
  }
  if (bad.length) return { ok: false, error: `${tool}: ${bad.join(', ')} ${bad.length === 1 ? 'is' : 'are'} not among the documents retrieved in this episode (use ids shown in results)` }
  return { ok: true, ids }
}

function reviewDocs(ep: Episode, raw: string[]): HandlerResult {
  const r = seenIds(ep, 'review_docs', raw)
  if (!r.ok) return r
  const details = r.ids.map((id) => {
    const c = ep.outer.get(id)!
    return { id: docId(id), title: c.title, text: c.text }
  })
  return { ok: true, added: [], result: view('review_docs', `Full text of ${details.map((d) => d.id).join(', ')} from working memory.`, [], details) }
}

function curate(ep: Episode, addRaw: string[], removeRaw: string[], tag: ImportanceTag): HandlerResult {
  const add = seenIds(ep, 'curate', addRaw)
  if (!add.ok) return add
  const remove: number[] = []
  const notCurated: string[] = []
  for (const r of removeRaw) {
    const id = parseDocId(r)
    if (id === null || !ep.curated.has(id)) notCurated.push(r)
    else if (!remove.includes(id)) remove.push(id)
  }
  if (notCurated.length) return { ok: false, error: `curate: cannot remove ${notCurated.join(', ')}: not in the curated set` }

  const lines: string[] = []
  for (const id of remove) ep.curated.remove(id)
  if (remove.length) lines.push(`Removed ${remove.map(docId).join(', ')}.`)
  const outcomes: CurateOutcome[] = add.ids.map((id) => ep.curated.add(id, tag, ep.turn, 'policy'))
  const label = ep.config.importanceTags ? ` at ${tag}` : ''
  const added = outcomes.filter((o) => o.kind === 'added').map((o) => docId(o.chunkId))
  if (added.length) lines.push(`Added ${added.join(', ')}${label}.`)
  for (const o of outcomes) {
    if (o.kind === 'retagged') lines.push(`${docId(o.chunkId)} re-tagged ${o.from} → ${o.to}.`)
    if (o.kind === 'unchanged') lines.push(`${docId(o.chunkId)} was already curated${label}.`)
    if (o.kind === 'evicted') lines.push(`${docId(o.chunkId)} added at ${o.tag}; the set was full, so ${docId(o.evicted.chunkId)} (${o.evicted.tag}) was evicted.`)
    if (o.kind === 'full') {
      lines.push(
        ep.config.importanceTags
          ? `Curated set is full (${ep.curated.size}/${ep.curated.cap}): ${docId(o.chunkId)} not added, its tag ${o.tag} does not outrank the lowest (${docId(o.lowest.chunkId)}, ${o.lowest.tag}). Remove a document or use a higher tag.`
          : `Curated set is full (${ep.curated.size}/${ep.curated.cap}): ${docId(o.chunkId)} not added. Remove a document first.`,
      )
    }
  }
  lines.push(`Curated set: ${ep.curated.size}/${ep.curated.cap}.`)
  return { ok: true, added: [], result: view('curate', lines.join('\n')) }
}

async function verify(ep: Episode, deps: HandlerDeps, raw: string[], claim: string): Promise<HandlerResult> {
  const r = seenIds(ep, 'verify', raw)
  if (!r.ok) return r
  const passages: VerifyPassage[] = r.ids.map((id) => {
    const c = ep.outer.get(id)!
    return { docId: docId(id), title: c.title, text: c.text, sentences: c.sentences.map((s) => s.text) }
  })
  // A failing injected checker (a model that crashed or timed out) must not end the episode: the
  // lexical check stands in, and the record says so.
  let checked: ClaimCheckResult
  let checker = deps.checker ? deps.checker.name : LEXICAL_CHECKER_NAME
  let lexical = !deps.checker
  try {
    checked = deps.checker ? await deps.checker.check(claim, passages) : lexicalCheck(claim, passages)
  } catch (err) {
    checked = lexicalCheck(claim, passages)
    checker = `${LEXICAL_CHECKER_NAME}; ${deps.checker!.name} failed: ${err instanceof Error ? err.message : String(err)}`
    lexical = true
  }
  const record = {
    turn: ep.turn,
    claim,
    docIds: passages.map((p) => p.docId),
    verdict: checked.verdict,
    score: checked.score,
    checker,
    lexical,
    ...(checked.rationale ? { rationale: checked.rationale } : {}),
    evidence: checked.evidence ?? [],
  }
  ep.verifications.push(record)
  const lines = [
    `Claim ${record.verdict} (score ${record.score.toFixed(2)}, ${record.lexical ? 'lexical check' : record.checker}) against ${record.docIds.join(', ')}.`,
    ...(record.rationale ? [record.rationale] : []),
    ...record.evidence.map((e) => `- ${e.docId}: ${e.sentence}`),
  ]
  return { ok: true, added: [], result: view('verify', lines.join('\n')) }
}
