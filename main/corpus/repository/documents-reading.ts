/** A document for the reader, with the sentence (by its number) and chunk asked for located as character spans. */
import { documentReader, type ReaderChunk, type ReaderDocument, type ReaderSentence } from './documents-reader'
import type { WorkspaceHandle } from './statements'

export interface DocumentReadingResult extends ReaderDocument {
  chunks: ReaderChunk[]
  sentences: ReaderSentence[]
  highlight: {
    chunk: { chunkId: number; start: number; end: number } | null
    sentence: { sentenceId: number; ord: number; start: number; end: number } | null
  }
  notFound: string[]
}

/** undefined when there is no such document; what was asked for but is not in it is listed in `notFound`. */
export function readDocumentAt(raw: WorkspaceHandle, documentId: number, at: { sentence?: number; chunkId?: number } = {}): DocumentReadingResult | undefined {
  const repo = documentReader(raw)
  const doc = repo.document(documentId)
  if (!doc) return undefined
  const chunks = repo.chunks(documentId)
  const sentences = repo.sentences(documentId)
  const notFound: string[] = []
  let chunk: DocumentReadingResult['highlight']['chunk'] = null
  let sentence: DocumentReadingResult['highlight']['sentence'] = null
  if (at.chunkId !== undefined) {
    const c = chunks.find((x) => x.chunkId === at.chunkId)
    if (c) chunk = { chunkId: c.chunkId, start: c.start, end: c.end }
    else notFound.push(`Chunk ${at.chunkId} is not a chunk of "${doc.title}"`)
  }
  if (at.sentence !== undefined) {
    const s = sentences.find((x) => x.ord === at.sentence)
    if (s) sentence = { sentenceId: s.sentenceId, ord: s.ord, start: s.start, end: s.end }
    else notFound.push(`"${doc.title}" has no sentence ${at.sentence} (its sentences are numbered ${sentences.length ? `${sentences[0]!.ord}–${sentences.at(-1)!.ord}` : 'nowhere: it has none'})`)
  }
  return { ...doc, chunks, sentences, highlight: { chunk, sentence }, notFound }
}
