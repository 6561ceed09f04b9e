import { planChunks, type ChunkingOptions, type ChunkPlan } from '../corpus/chunker'
import { countTokens } from '../corpus/tokens'
import type { SourceDocument } from '../corpus/types'
import { buildAliasMap, extractEntitiesBatch, isLookupTarget, resolveAlias, splitSentences, type Mention } from '../graph/nlp'

export interface PreparedSentence {
  /** Index of the sentence in its document (gold sentence ids refer to it). */
  ord: number
  text: string
  start: number
  end: number
  tokens: number
  mentions: (Mention & { lookupOk: boolean })[]
}

export interface PreparedDocument {
  doc: SourceDocument
  tokenCount: number
  sentences: PreparedSentence[]
  /** firstSentence/lastSentence are positions in `sentences`, not ords. */
  chunks: ChunkPlan[]
}

interface Span {
  ord: number
  text: string
  start: number
  end: number
}

/**
 * Sentence spans with offsets into doc.text: the source's own sentences when it has them, else the
 * splitter's. `ord` is the sentence's index in the source, so gold [title, sentence id] facts resolve even
 * when the source has empty sentences (they are not stored, but keep their number).
 */
export function sentenceSpans(doc: SourceDocument): Span[] {
  if (doc.sentences && doc.sentences.length > 0) {
    const spans: Span[] = []
    let pos = 0
    for (const [ord, raw] of doc.sentences.entries()) {
      const text = raw.trim()
      if (!text) continue
      const start = doc.text.indexOf(text, pos)
      if (start < 0) return split(doc.text) // text and sentences disagree: trust the text
      spans.push({ ord, text, start, end: start + text.length })
      pos = start + text.length
    }
    return spans
  }
  return split(doc.text)
}

const split = (text: string): Span[] => splitSentences(text).map((s, ord) => ({ ord, ...s }))

/** Sentences, token counts, chunks and entity mentions for a file's documents (CPU only, no database). */
export function prepareDocuments(docs: readonly SourceDocument[], chunking: ChunkingOptions): PreparedDocument[] {
  return docs.map((doc) => {
    const spans = sentenceSpans(doc)
    // One batch per document: the extractor shares surname typing within a call, which must not leak across documents.
    const mentionsByDoc = extractEntitiesBatch(spans.map((s) => s.text))
    // Aliases are resolved within a document: "Lovelace" after "Ada Lovelace" is the same person.
    const aliases = buildAliasMap(mentionsByDoc.flat())
    const sentences: PreparedSentence[] = spans.map((s, i) => ({
      ord: s.ord,
      text: s.text,
      start: s.start,
      end: s.end,
      tokens: countTokens(s.text),
      mentions: mentionsByDoc[i]!.map((m) => ({ ...m, canonical: resolveAlias(aliases, m.canonical), lookupOk: isLookupTarget(m) })),
    }))
    return {
      doc,
      tokenCount: sentences.reduce((n, s) => n + s.tokens, 0),
      sentences,
      chunks: planChunks(sentences, chunking),
    }
  })
}
