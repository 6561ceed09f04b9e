/**
 * The corpus as the generator's checks read it, loaded as they ask: documents by title, a document's
 * sentences with their mentions, the documents that name an entity (its mentions, or its name's words
 * in the full-text index, so a mention the graph missed still counts), and each sentence's flaw
 * (evidence.ts). One view serves one generation run; documents read once stay cached.
 */
import type { GenSpan, QuestionGenerationRepository } from '../../corpus/repository'
import { documentFlaws, type SentenceFlaw } from './evidence'

export interface ViewSentence {
  id: number
  documentId: number
  ord: number
  text: string
  mentions: GenSpan[]
}

/** A title or a name compared as a reader compares them: case, punctuation and a "(qualifier)" ignored. */
export const normalisedName = (s: string): string =>
  s
    .toLowerCase()
    .replace(/\s*\(.*\)\s*$/, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .replace(/^the /, '')
    .trim()

export class CorpusView {
  private readonly titleOf = new Map<number, string>()
  private readonly byTitle = new Map<string, number[]>()
  private readonly byName = new Map<string, number[]>()
  private readonly documents = new Map<number, ViewSentence[]>()
  private flaws: Map<number, SentenceFlaw> | null = null

  /** `throwIfCancelled` is called between documents while every sentence's flaw is read (a long read on a large corpus). */
  constructor(
    private readonly repo: QuestionGenerationRepository,
    private readonly throwIfCancelled: () => void = () => undefined,
  ) {
    for (const d of repo.documentTitles()) {
      this.titleOf.set(d.id, d.title)
      push(this.byTitle, d.title.toLowerCase(), d.id)
      push(this.byName, normalisedName(d.title), d.id)
    }
  }

  title(documentId: number): string {
    return this.titleOf.get(documentId) ?? ''
  }

  /** Documents whose title is this one (case ignored): a passage corpus has several per article. */
  titled(title: string): number[] {
    return this.byTitle.get(title.toLowerCase()) ?? []
  }

  /** Documents that are an article on a thing of this name: the title, less any "(qualifier)", is the name. */
  articlesOn(name: string): number[] {
    return this.byName.get(normalisedName(name)) ?? []
  }

  /** The document's sentences in order, each with its mentions. */
  sentences(documentId: number): ViewSentence[] {
    const cached = this.documents.get(documentId)
    if (cached) return cached
    const rows = this.repo.sentencesOf(documentId)
    const mentions = new Map<number, GenSpan[]>()
    for (const m of this.repo.mentionsInDocument(documentId)) push(mentions, m.sentenceId, m)
    const out = rows.map((r) => ({ ...r, mentions: mentions.get(r.id) ?? [] }))
    this.documents.set(documentId, out)
    return out
  }

  /** Documents that mention any of the entities, or hold any of the names' words in a row. */
  documentsNaming(entityIds: readonly number[], names: readonly string[]): number[] {
    const out = new Set(this.repo.documentsMentioning(entityIds))
    for (const name of names) for (const id of this.repo.documentsWithPhrase(name)) out.add(id)
    return [...out].sort((a, b) => a - b)
  }

  /** The sentence's flaw read in its document, null for prose (every document is read once, on first ask). */
  flaw(sentenceId: number): SentenceFlaw | null {
    this.flaws ??= readFlaws(this.repo, this.throwIfCancelled)
    return this.flaws.get(sentenceId) ?? null
  }
}

/** Every sentence's flaw, a document at a time (sentences come in document order). */
function readFlaws(repo: QuestionGenerationRepository, throwIfCancelled: () => void): Map<number, SentenceFlaw> {
  const flaws = new Map<number, SentenceFlaw>()
  let documentId = -1
  let ids: number[] = []
  let texts: string[] = []
  const close = (): void => documentFlaws(texts).forEach((f, i) => f !== null && flaws.set(ids[i]!, f))
  for (const s of repo.sentencesInOrder()) {
    if (s.documentId !== documentId) {
      close()
      throwIfCancelled()
      documentId = s.documentId
      ids = []
      texts = []
    }
    ids.push(s.id)
    texts.push(s.text)
  }
  close()
  return flaws
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key)
  if (list) list.push(value)
  else map.set(key, [value])
}
