import { planChunks, type ChunkingOptions, type ChunkPlan } from '../corpus/chunker'
import { countTokens } from '../corpus/tokens'
import type { SourceDocument } from '../corpus/types'
import { boundedBlocks, buildAliasMap, EntityExtractor, isLookupTarget, longRuns, resolveAlias, sentencesOfBlocks, type Mention } from '../graph/nlp'
import { ENTITY_TYPES } from './entity-types'

/** One sentence of a prepared document, as objects (see `preparedSentences`). */
export interface PreparedSentence {
  /** Index of the sentence in its document (gold sentence ids refer to it). */
  ord: number
  text: string
  start: number
  end: number
  tokens: number
  mentions: (Mention & { lookupOk: boolean })[]
}

/**
 * A document ready for the writer, packed into typed arrays: a 60 MB document has a million sentences
 * and more mentions, which as objects cost several times the text in memory (twice over when they
 * cross from the file worker). Texts are not stored: a sentence is `doc.text.slice(start, end)` and a
 * mention's surface is its sentence's `slice(start, end)`, as they were when prepared.
 */
export interface PreparedDocument {
  doc: SourceDocument
  tokenCount: number
  /** SENTENCE_FIELDS per sentence: ord (index in the source), start, end (offsets into doc.text), cl100k tokens. */
  sentences: Int32Array
  /** MENTION_FIELDS per mention, grouped by sentence in order: sentence position, start, end (in the sentence), type (ENTITY_TYPES index), lookupOk (0/1), canonical (index into `canonicals`). */
  mentions: Int32Array
  /** The document's distinct canonical keys (after alias resolution). */
  canonicals: string[]
  /** firstSentence/lastSentence are positions in `sentences`, not ords. */
  chunks: ChunkPlan[]
}

export const SENTENCE_FIELDS = 4
export const MENTION_FIELDS = 6

/** Sentence count of a prepared document. */
export const sentenceCount = (d: PreparedDocument): number => d.sentences.length / SENTENCE_FIELDS

/** The prepared document's sentences with their mentions as objects (for tests and small documents). */
export function preparedSentences(d: PreparedDocument): PreparedSentence[] {
  const S = d.sentences
  const M = d.mentions
  const out: PreparedSentence[] = []
  let m = 0
  for (let i = 0; i < sentenceCount(d); i++) {
    const start = S[i * SENTENCE_FIELDS + 1]!
    const end = S[i * SENTENCE_FIELDS + 2]!
    const text = d.doc.text.slice(start, end)
    const mentions: PreparedSentence['mentions'] = []
    for (; m < M.length / MENTION_FIELDS && M[m * MENTION_FIELDS] === i; m++) {
      const at = m * MENTION_FIELDS
      const [ms, me] = [M[at + 1]!, M[at + 2]!]
      mentions.push({ surface: text.slice(ms, me), start: ms, end: me, type: ENTITY_TYPES[M[at + 3]!]!, canonical: d.canonicals[M[at + 5]!]!, lookupOk: M[at + 4] === 1 })
    }
    out.push({ ord: S[i * SENTENCE_FIELDS]!, text, start, end, tokens: S[i * SENTENCE_FIELDS + 3]!, mentions })
  }
  return out
}

/** Rows of `width` int32 values in an Int32Array that grows as rows are appended; `take()` returns the filled part. */
class IntRows {
  private data = new Int32Array(4096)
  private length = 0
  constructor(private readonly width: 4 | 6) {}
  push(a: number, b: number, c: number, d: number, e = 0, f = 0): void {
    if (this.length + this.width > this.data.length) {
      const grown = new Int32Array(this.data.length * 2)
      grown.set(this.data)
      this.data = grown
    }
    const at = this.length
    const data = this.data
    data[at] = a
    data[at + 1] = b
    data[at + 2] = c
    data[at + 3] = d
    if (this.width === 6) {
      data[at + 4] = e
      data[at + 5] = f
    }
    this.length += this.width
  }
  take(): Int32Array {
    return this.data.slice(0, this.length)
  }
}

interface Span {
  ord: number
  text: string
  start: number
  end: number
}

/**
 * Characters of a document read by one NLP pass (sentence splitting, then entity extraction over the
 * piece's sentences). A longer document is read piece by piece, cut between blocks (paragraphs, or
 * sentence-like boundaries inside an overlong block), so time and memory grow linearly with its length
 * and sentence numbering is the same as in one pass. Document-level fixes (surname typing, aliases)
 * still see the whole document.
 */
export const NLP_PIECE_CHARS = 256 * 1024

/** The source's own sentence spans with offsets into doc.text, or null when text and sentences disagree. */
function givenSpans(doc: SourceDocument & { sentences: string[] }): Span[] | null {
  const spans: Span[] = []
  let pos = 0
  for (const [ord, raw] of doc.sentences.entries()) {
    const text = raw.trim()
    if (!text) continue
    const start = doc.text.indexOf(text, pos)
    if (start < 0) return null
    spans.push({ ord, text, start, end: start + text.length })
    pos = start + text.length
  }
  return spans
}

/** Runs of consecutive blocks of `text` holding at most `maxChars` each (a block longer than that is a run of its own). */
function blockRuns(text: string, maxChars: number): [number, number][][] {
  const runs: [number, number][][] = []
  let run: [number, number][] = []
  let size = 0
  for (const block of boundedBlocks(text)) {
    const length = block[1] - block[0]
    if (run.length > 0 && size + length > maxChars) {
      runs.push(run)
      run = []
      size = 0
    }
    run.push(block)
    size += length
  }
  if (run.length > 0) runs.push(run)
  return runs
}

/** Sentence spans of a document in pieces of at most about `maxChars`, each piece as its own array. */
function* spanPieces(doc: SourceDocument, maxChars: number): Generator<Span[]> {
  const given = doc.sentences && doc.sentences.length > 0 ? givenSpans(doc as SourceDocument & { sentences: string[] }) : null
  if (given) {
    // The source's sentences (ord = index in the source, so gold [title, sentence id] facts resolve).
    let piece: Span[] = []
    let size = 0
    for (const span of given) {
      if (piece.length > 0 && size + span.text.length > maxChars) {
        yield piece
        piece = []
        size = 0
      }
      piece.push(span)
      size += span.text.length
    }
    if (piece.length > 0) yield piece
    return
  }
  // The splitter's sentences (also when the source's sentences disagree with its text: the text is trusted).
  let ord = 0
  for (const run of blockRuns(doc.text, maxChars)) {
    yield sentencesOfBlocks(doc.text, run).map((s) => ({ ord: ord++, ...s }))
  }
}

/**
 * Sentence spans with offsets into doc.text: the source's own sentences when it has them, else the
 * splitter's. `ord` is the sentence's index in the source, so gold [title, sentence id] facts resolve even
 * when the source has empty sentences (they are not stored, but keep their number).
 */
export function sentenceSpans(doc: SourceDocument): Span[] {
  const out: Span[] = []
  for (const piece of spanPieces(doc, NLP_PIECE_CHARS)) for (const span of piece) out.push(span)
  return out
}

/**
 * cl100k byte-pair encoding is quadratic in the length of one pre-token (a run of letters or digits
 * without spaces): 40,000 such characters take seconds, a 100,000-character run of base64 or a
 * minified line many seconds each. Runs longer than this are counted in slices of this size, which
 * keeps counting linear and changes nothing for ordinary text (whose words are all shorter).
 */
const MAX_COUNTED_RUN = 1000

/** cl100k tokens of a sentence, exact unless it holds a run of more than MAX_COUNTED_RUN non-space characters. */
export function sentenceTokens(text: string): number {
  const runs = longRuns(text, MAX_COUNTED_RUN)
  if (runs.length === 0) return countTokens(text)
  let tokens = 0
  let at = 0
  for (const [start, end] of runs) {
    tokens += countTokens(text.slice(at, start))
    for (let k = start; k < end; k += MAX_COUNTED_RUN) tokens += countTokens(text.slice(k, Math.min(end, k + MAX_COUNTED_RUN)))
    at = end
  }
  return tokens + countTokens(text.slice(at))
}

/** Progress of a document's preparation: characters done of the document's length. */
export type PrepareProgress = (doneChars: number, totalChars: number) => void

const TYPE_CODE: ReadonlyMap<string, number> = new Map(ENTITY_TYPES.map((t, i) => [t, i]))

/**
 * Sentences, token counts, chunks and entity mentions of one document, read in pieces of
 * NLP_PIECE_CHARS (see there); `onPiece` hears after each piece. The result depends on the document
 * and the chunking alone: every wink pass starts from its shipped lexicon.
 */
export function prepareDocument(doc: SourceDocument, chunking: ChunkingOptions, onPiece?: PrepareProgress, pieceChars = NLP_PIECE_CHARS): PreparedDocument {
  // One extractor per document: it shares surname typing across the document, which must not leak across documents.
  const extractor = new EntityExtractor()
  const sentences = new IntRows(SENTENCE_FIELDS)
  let tokenCount = 0
  const total = doc.text.length
  for (const piece of spanPieces(doc, pieceChars)) {
    extractor.add(piece.map((s) => s.text))
    for (const s of piece) {
      const tokens = sentenceTokens(s.text)
      tokenCount += tokens
      sentences.push(s.ord, s.start, s.end, tokens)
    }
    onPiece?.(piece[piece.length - 1]!.end, total)
  }
  const bySentence = extractor.finishInPlace()
  // Aliases are resolved within a document: "Lovelace" after "Ada Lovelace" is the same person.
  const all: Mention[] = []
  for (const group of bySentence) for (const m of group) all.push(m)
  const aliases = buildAliasMap(all)
  all.length = 0
  const mentions = new IntRows(MENTION_FIELDS)
  const canonicals: string[] = []
  const canonicalIds = new Map<string, number>()
  bySentence.forEach((group, i) => {
    for (const m of group) {
      const canonical = resolveAlias(aliases, m.canonical)
      let id = canonicalIds.get(canonical)
      if (id === undefined) {
        id = canonicals.push(canonical) - 1
        canonicalIds.set(canonical, id)
      }
      mentions.push(i, m.start, m.end, TYPE_CODE.get(m.type)!, isLookupTarget(m) ? 1 : 0, id)
    }
  })
  const packed = sentences.take()
  const rows = []
  for (let i = 0; i < packed.length; i += SENTENCE_FIELDS) rows.push({ start: packed[i + 1]!, end: packed[i + 2]!, tokens: packed[i + 3]! })
  return { doc, tokenCount, sentences: packed, mentions: mentions.take(), canonicals, chunks: planChunks(rows, chunking) }
}

/** Progress over a file's documents, as a fraction of their characters. */
export type PrepareFraction = (fraction: number) => void

/** Sentences, token counts, chunks and entity mentions for a file's documents (CPU only, no database). */
export function prepareDocuments(docs: readonly SourceDocument[], chunking: ChunkingOptions, onProgress?: PrepareFraction): PreparedDocument[] {
  const total = docs.reduce((n, d) => n + d.text.length, 0) || 1
  let before = 0
  return docs.map((doc) => {
    const prepared = prepareDocument(doc, chunking, onProgress ? (done) => onProgress((before + done) / total) : undefined)
    before += doc.text.length
    onProgress?.(before / total)
    return prepared
  })
}
