/**
 * Gold resolution: a question's gold, as the benchmark names it, pinned to documents and sentences of
 * the workspace by id, once. Scoring (main/experiments/metrics/score.ts), the Harness-1 reward
 * (main/rl/rewards/harness1-gold.ts) and the oracle policy all read the result, so "which document is
 * gold" has one answer everywhere.
 *
 * Rules:
 * - supportingDocs: a name is a document's external id first (one import's documents have unique
 *   external ids: HotpotQA's are titles, MuSiQue's "title", "title (2)", ... for texts that share a
 *   title); only when no external id matches is it read as an exact title, and then only when one
 *   document has that title. Anything else (no document, several) is reported in `missing`, never guessed.
 * - supportingFacts [title, sentence ord]: the document titled so (the external id when no title
 *   matches); when a title repeats, the one of those documents that supportingDocs resolved to; then the
 *   sentence with that ord. Unresolved facts are reported in `missing`.
 * - Gold documents are the named ones; a question that names none has the documents of its facts.
 * Everything unresolved stays in the result (documentId / sentenceId null) and counts as a gold unit
 * that nothing covers: recall is measured against the question, not against what ingest kept.
 */
import { corpusRepositories, type ChunkSpan, type DocumentRef, type SentenceSpan, type WorkspaceHandle } from './repository'
import type { SupportingFact } from './types'

export type { ChunkSpan, SentenceSpan, WorkspaceHandle }

/**
 * Gold evidence resolved against the workspace once, when the question is loaded; shared by scoring,
 * rewards and the oracle. (main/harness/types.ts re-exports it as the type of EnvQuestion.gold.)
 */
export interface ResolvedGold {
  /** Gold documents (documents.id), deduplicated, in the question's order: named documents, else the documents of the gold sentences. */
  documentIds: number[]
  /** Gold sentences (sentences.id) from sentence-level gold, deduplicated, in the question's order. */
  sentenceIds: number[]
  /** Gold the question names that the corpus does not hold or cannot pin down (ambiguous names), one readable line each (counted as never covered). */
  missing: string[]
  /**
   * Each gold document as the question names it (supportingDocs; the titles of supportingFacts when it
   * names none), in order, with what it resolved to. documentId null: unresolved (listed in `missing`),
   * a gold unit nothing covers.
   */
  documents: { name: string; documentId: number | null; title: string | null }[]
  /**
   * Each gold sentence ([title, sentence ord], deduplicated), in order, with its document and sentence.
   * sentenceId null: unresolved (listed in `missing`), a gold unit nothing covers.
   */
  facts: { title: string; sentence: number; documentId: number | null; sentenceId: number | null }[]
}

export type GoldDocumentRow = DocumentRef

/**
 * Where gold names are looked up. The workspace implements it over SQLite; a policy that has only its
 * observations (the oracle on an ad-hoc question) implements it over what it has seen, and resolves
 * with the same rules.
 */
export interface GoldCatalogue {
  /** Documents whose external id is exactly `externalId`, ascending ids. */
  documentsByExternalId(externalId: string): readonly GoldDocumentRow[]
  /** Documents titled exactly `title`, ascending ids. */
  documentsByTitle(title: string): readonly GoldDocumentRow[]
  /** The id of the document's sentence with this ord, or null. */
  sentenceAt(documentId: number, ord: number): number | null
}

/** The gold fields of a question, as stored (EnvQuestion's supportingDocs and supportingFacts). */
export interface GoldNames {
  supportingDocs: readonly string[]
  supportingFacts: readonly SupportingFact[]
}

/** A question that may carry its resolved gold already (EnvQuestion.gold, filled by loadQuestions). */
export type GoldQuestion = GoldNames & { gold?: ResolvedGold }

type DocumentEntry = ResolvedGold['documents'][number]
type FactEntry = ResolvedGold['facts'][number]

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`

/** Resolves a question's gold names against a catalogue (see the module comment for the rules). */
export function resolveGoldIn(catalogue: GoldCatalogue, question: GoldNames): ResolvedGold {
  const missing: string[] = []

  const named: DocumentEntry[] = []
  for (const name of new Set(question.supportingDocs)) {
    const byId = catalogue.documentsByExternalId(name)
    if (byId.length === 1) {
      named.push({ name, documentId: byId[0]!.id, title: byId[0]!.title })
      continue
    }
    if (byId.length > 1) {
      missing.push(`gold document "${name}" is ambiguous: ${plural(byId.length, 'document has', 'documents have')} this external id`)
      named.push({ name, documentId: null, title: null })
      continue
    }
    const byTitle = catalogue.documentsByTitle(name)
    if (byTitle.length === 1) {
      named.push({ name, documentId: byTitle[0]!.id, title: byTitle[0]!.title })
    } else {
      missing.push(
        byTitle.length === 0
          ? `gold document "${name}" is not in the corpus`
          : `gold document "${name}" is ambiguous: ${byTitle.length} documents have this title and none has it as external id`,
      )
      named.push({ name, documentId: null, title: null })
    }
  }
  const namedIds = new Set(named.map((d) => d.documentId).filter((id): id is number => id !== null))

  const facts: FactEntry[] = []
  const factKeys = new Set<string>()
  for (const { title, sentence } of question.supportingFacts) {
    const key = JSON.stringify([title, sentence])
    if (factKeys.has(key)) continue
    factKeys.add(key)
    const document = factDocument(catalogue, title, namedIds)
    if ('problem' in document) {
      missing.push(`gold sentence ${sentence} of "${title}": ${document.problem}`)
      facts.push({ title, sentence, documentId: null, sentenceId: null })
      continue
    }
    const sentenceId = catalogue.sentenceAt(document.id, sentence)
    if (sentenceId === null) missing.push(`gold sentence ${sentence} of "${title}" is not in the corpus`)
    facts.push({ title, sentence, documentId: document.id, sentenceId })
  }

  // Documents: the named ones; else those of the facts (one entry per document, or per unresolved title).
  let documents = named
  if (question.supportingDocs.length === 0) {
    documents = []
    const seen = new Set<string>()
    for (const f of facts) {
      const key = f.documentId !== null ? `#${f.documentId}` : `?${f.title}`
      if (seen.has(key)) continue
      seen.add(key)
      documents.push({ name: f.title, documentId: f.documentId, title: f.documentId !== null ? f.title : null })
    }
  }
  const distinct = <T>(xs: readonly (T | null)[]): T[] => [...new Set(xs.filter((x): x is T => x !== null))]
  return {
    documentIds: distinct(documents.map((d) => d.documentId)),
    sentenceIds: distinct(facts.map((f) => f.sentenceId)),
    missing,
    documents,
    facts,
  }
}

function factDocument(catalogue: GoldCatalogue, title: string, namedIds: ReadonlySet<number>): GoldDocumentRow | { problem: string } {
  let candidates = catalogue.documentsByTitle(title)
  if (candidates.length === 0) candidates = catalogue.documentsByExternalId(title)
  if (candidates.length === 1) return candidates[0]!
  if (candidates.length === 0) return { problem: 'no document has this title' }
  const preferred = candidates.filter((d) => namedIds.has(d.id))
  if (preferred.length === 1) return preferred[0]!
  const byId = catalogue.documentsByExternalId(title).filter((d) => candidates.some((c) => c.id === d.id))
  if (preferred.length === 0 && byId.length === 1) return byId[0]!
  return { problem: `ambiguous: ${candidates.length} documents have this title${preferred.length > 1 ? ` and ${preferred.length} of them are named gold documents` : ''}` }
}

/**
 * The workspace's documents and sentences as a catalogue (the corpus repositories). Lookups are
 * cached; `prefetch` answers many names with one query.
 */
export class WorkspaceGoldCatalogue implements GoldReferenceCatalogue {
  private readonly repositories
  private readonly externalIds = new Map<string, GoldDocumentRow[]>()
  private readonly titles = new Map<string, GoldDocumentRow[]>()

  constructor(raw: WorkspaceHandle) {
    this.repositories = corpusRepositories(raw)
  }

  /** Looks up every name as external id and as title in one query; later lookups of these names are cached. */
  prefetch(names: Iterable<string>): void {
    const wanted = [...new Set(names)].filter((n) => !this.externalIds.has(n) || !this.titles.has(n))
    if (wanted.length === 0) return
    for (const n of wanted) {
      this.externalIds.set(n, [])
      this.titles.set(n, [])
    }
    for (const r of this.repositories.documents.byExternalIdOrTitle(wanted)) {
      this.externalIds.get(r.externalId)?.push({ id: r.id, title: r.title })
      this.titles.get(r.title)?.push({ id: r.id, title: r.title })
    }
  }

  documentsByExternalId(externalId: string): GoldDocumentRow[] {
    let rows = this.externalIds.get(externalId)
    if (!rows) {
      rows = this.repositories.documents.byExternalId(externalId)
      this.externalIds.set(externalId, rows)
    }
    return rows
  }

  documentsByTitle(title: string): GoldDocumentRow[] {
    let rows = this.titles.get(title)
    if (!rows) {
      rows = this.repositories.documents.byTitle(title)
      this.titles.set(title, rows)
    }
    return rows
  }

  sentenceAt(documentId: number, ord: number): number | null {
    return this.repositories.sentences.idAt(documentId, ord)
  }

  documentsByFile(name: string): (GoldDocumentRow & { externalId: string })[] {
    return this.repositories.questionGold.documentsByFile(name)
  }

  sentencesByText(text: string): { documentId: number; ord: number; title: string; externalId: string }[] {
    const exact = this.repositories.questionGold.sentencesExactly(text)
    return exact.length > 0 ? exact : this.repositories.questionGold.sentencesContaining(text)
  }

  externalIdOf(documentId: number): string | null {
    return this.repositories.questionGold.document(documentId)?.externalId ?? null
  }
}

/**
 * Gold as a question file gives it, before it is pinned: a document by external id (else exact title,
 * as supportingDocs), a title, a source file's name, a quoted sentence (exact text first, else the one
 * sentence containing it; `document` narrows it), or a [title, sentence ord] fact.
 */
export type GoldReference =
  | { kind: 'document'; value: string }
  | { kind: 'title'; value: string }
  | { kind: 'file'; value: string }
  | { kind: 'sentence'; text: string; document?: string }
  | { kind: 'fact'; title: string; sentence: number }

/** What references beyond names need: files, sentence texts and documents by row id. */
export interface GoldReferenceCatalogue extends GoldCatalogue {
  documentsByFile(name: string): readonly (GoldDocumentRow & { externalId: string })[]
  /** Sentences with exactly this text, else those containing it (case-insensitively). */
  sentencesByText(text: string): readonly { documentId: number; ord: number; title: string; externalId: string }[]
  externalIdOf(documentId: number): string | null
}

export interface ResolvedReferences {
  /** The gold as stored: names the resolver pins on every load. */
  names: { supportingDocs: string[]; supportingFacts: SupportingFact[] }
  gold: ResolvedGold
  /** References that could not be pinned, with why (the resolver's own `missing` lines included). */
  unresolved: { item: string; reason: string }[]
}

const describeReference = (r: GoldReference): string =>
  r.kind === 'fact' ? `[${JSON.stringify(r.title)}, ${r.sentence}]` : r.kind === 'sentence' ? `sentence "${r.text.length > 80 ? `${r.text.slice(0, 77)}...` : r.text}"` : `${r.kind} "${r.value}"`

/**
 * References turned into stored gold names (external ids and [title, ord] facts), then resolved with
 * the same rules as every load (resolveGoldIn), so what an import reports is what scoring will see.
 * When any document is named, the documents of the gold sentences are named too (named documents are
 * the whole document-level gold).
 */
export function resolveGoldReferences(catalogue: GoldReferenceCatalogue, refs: readonly GoldReference[]): ResolvedReferences {
  const docs: string[] = []
  const facts: SupportingFact[] = []
  const unresolved: { item: string; reason: string }[] = []
  const flagged = new Set<string>()
  const fail = (r: GoldReference, reason: string): void => {
    unresolved.push({ item: describeReference(r), reason })
    flagged.add(describeReference(r))
  }
  for (const r of refs) {
    if (r.kind === 'document' || r.kind === 'title') {
      if (r.kind === 'title' && catalogue.documentsByTitle(r.value).length === 1) docs.push(catalogue.externalIdOf(catalogue.documentsByTitle(r.value)[0]!.id) ?? r.value)
      else docs.push(r.value)
    } else if (r.kind === 'fact') {
      facts.push({ title: r.title, sentence: r.sentence })
    } else if (r.kind === 'file') {
      const found = catalogue.documentsByFile(r.value)
      if (found.length === 0) fail(r, 'no ingested file has this name')
      else docs.push(...found.map((d) => d.externalId))
    } else {
      const quote = r.text.replace(/\s+/g, ' ').trim()
      let hits = quote === '' ? [] : catalogue.sentencesByText(quote)
      if (r.document !== undefined && hits.length > 0) {
        const doc = r.document
        hits = hits.filter((h) => h.externalId === doc || h.title === doc)
      }
      if (hits.length === 1) {
        facts.push({ title: hits[0]!.title, sentence: hits[0]!.ord })
        docs.push(hits[0]!.externalId)
      } else if (hits.length === 0) fail(r, quote === '' ? 'empty sentence' : 'no sentence of the corpus has or contains this text')
      else fail(r, `ambiguous: ${hits.length} sentences match (${[...new Set(hits.map((h) => h.title))].slice(0, 3).join('; ')})`)
    }
  }
  let names = { supportingDocs: [...new Set(docs)], supportingFacts: facts }
  let gold = resolveGoldIn(catalogue, names)
  if (names.supportingDocs.length > 0) {
    const extra = gold.facts.map((f) => (f.documentId !== null && !gold.documentIds.includes(f.documentId) ? catalogue.externalIdOf(f.documentId) : null)).filter((x): x is string => x !== null)
    if (extra.length > 0) {
      names = { supportingDocs: [...new Set([...names.supportingDocs, ...extra])], supportingFacts: facts }
      gold = resolveGoldIn(catalogue, names)
    }
  }
  for (const line of gold.missing) unresolved.push({ item: line.replace(/ (is|:).*$/, ''), reason: line })
  return { names, gold, unresolved }
}

/** The workspace's catalogue with the lookups gold references need. */
export function workspaceReferenceCatalogue(raw: WorkspaceHandle): WorkspaceGoldCatalogue {
  return new WorkspaceGoldCatalogue(raw)
}

/** A question's gold resolved against the workspace as it is now. */
export function resolveGold(raw: WorkspaceHandle, question: GoldNames): ResolvedGold {
  return resolveGoldIn(new WorkspaceGoldCatalogue(raw), question)
}

/** Many questions' gold resolved against the workspace, with one query for all their names. */
export function resolveGoldAll(raw: WorkspaceHandle, questions: readonly GoldNames[]): ResolvedGold[] {
  const catalogue = new WorkspaceGoldCatalogue(raw)
  catalogue.prefetch(questions.flatMap((q) => [...q.supportingDocs, ...q.supportingFacts.map((f) => f.title)]))
  return questions.map((q) => resolveGoldIn(catalogue, q))
}

/** The question's resolved gold: the one filled when it was loaded, else resolved now (ad-hoc questions). */
export function goldOf(raw: WorkspaceHandle, question: GoldQuestion): ResolvedGold {
  return question.gold ?? resolveGold(raw, question)
}

/**
 * What scoring and rewards read about gold and evidence, so that layers which must not touch the
 * database (main/rl) can be given it: questions' resolved gold, document texts, sentence and chunk spans.
 */
export interface GoldEvidence {
  /** The question's gold: question.gold when loaded, else resolved now. */
  gold(question: GoldQuestion): ResolvedGold
  /** documents.text ('' when there is no such document). */
  documentText(documentId: number): string
  sentenceSpan(sentenceId: number): SentenceSpan | undefined
  /** Spans of the chunks that exist, by id. */
  chunkSpans(chunkIds: readonly number[]): Map<number, ChunkSpan>
}

/** GoldEvidence over a workspace database (the corpus repositories). */
export class WorkspaceGoldEvidence implements GoldEvidence {
  private readonly repositories

  constructor(private readonly raw: WorkspaceHandle) {
    this.repositories = corpusRepositories(raw)
  }

  gold(question: GoldQuestion): ResolvedGold {
    return goldOf(this.raw, question)
  }

  documentText(documentId: number): string {
    return this.repositories.documents.text(documentId) ?? ''
  }

  sentenceSpan(sentenceId: number): SentenceSpan | undefined {
    return this.repositories.sentences.span(sentenceId)
  }

  chunkSpans(chunkIds: readonly number[]): Map<number, ChunkSpan> {
    const unique = [...new Set(chunkIds)]
    if (unique.length === 0) return new Map()
    return new Map(this.repositories.chunks.spans(unique).map((r) => [r.id, r]))
  }
}

const evidenceByHandle = new WeakMap<WorkspaceHandle, WorkspaceGoldEvidence>()

/** GoldEvidence for a workspace handle (one per database, reused), or the GoldEvidence given. */
export function goldEvidence(source: GoldEvidence | WorkspaceHandle): GoldEvidence {
  if (!isWorkspaceHandle(source)) return source
  let evidence = evidenceByHandle.get(source)
  if (!evidence) {
    evidence = new WorkspaceGoldEvidence(source)
    evidenceByHandle.set(source, evidence)
  }
  return evidence
}

const isWorkspaceHandle = (source: GoldEvidence | WorkspaceHandle): source is WorkspaceHandle =>
  typeof (source as Partial<WorkspaceHandle>).prepare === 'function' && typeof (source as Partial<GoldEvidence>).chunkSpans !== 'function'

/** A unit of document-level recall: a gold document, or an unresolved one (key "missing:..."), which nothing covers. */
export interface GoldDocumentUnit {
  key: string
  documentId: number | null
}

/** Key of a document in document-level recalls (what committed or curated evidence is mapped to). */
export const documentKey = (documentId: number): string => `doc:${documentId}`

/** The gold documents as recall units, one per distinct document; every unresolved name is its own uncovered unit. */
export function goldDocumentUnits(gold: ResolvedGold): GoldDocumentUnit[] {
  const units = new Map<string, GoldDocumentUnit>()
  gold.documents.forEach((d, i) => {
    const key = d.documentId !== null ? documentKey(d.documentId) : `missing:${i}:${d.name}`
    if (!units.has(key)) units.set(key, { key, documentId: d.documentId })
  })
  return [...units.values()]
}

/** A unit of fact-level recall: a gold sentence, or an unresolved one (sentenceId null), which nothing covers. */
export interface GoldFactUnit {
  key: string
  sentenceId: number | null
  documentId: number | null
}

/** Key of a sentence in supporting-fact metrics. */
export const sentenceKey = (sentenceId: number): string => `sentence:${sentenceId}`

/** The gold sentences as recall units, one per distinct sentence; every unresolved fact is its own uncovered unit. */
export function goldFactUnits(gold: ResolvedGold): GoldFactUnit[] {
  const units = new Map<string, GoldFactUnit>()
  gold.facts.forEach((f, i) => {
    const key = f.sentenceId !== null ? sentenceKey(f.sentenceId) : `missing:${i}:${f.title}\u0000${f.sentence}`
    if (!units.has(key)) units.set(key, { key, sentenceId: f.sentenceId, documentId: f.documentId })
  })
  return [...units.values()]
}
