import { describeType, isPlainObject, jsonOrJsonlRecords, type JsonRecord } from '../parsers/records'
import { IngestFileError } from '../types'
import { malformed, readBenchmarkFile, recordObject, stringField, type ImportOptions } from './fields'

/** One passage of a separate corpus file. */
export interface TitledPassage {
  title: string
  /** Present when the corpus gives sentences, which then stay verbatim (trimmed) and aligned. */
  sentences?: string[]
  text: string
  /** Position in the corpus file. */
  index: number
}

/** Sentences as gold indices expect them: each trimmed, none dropped (an empty one keeps its slot). */
export const trimSentences = (sentences: readonly string[]): string[] => sentences.map((sentence) => sentence.trim())

export const joinSentences = (sentences: readonly string[]): string => sentences.join(' ')

function sentencesOf(value: unknown, where: string): string[] {
  if (!Array.isArray(value) || value.some((sentence) => typeof sentence !== 'string')) {
    throw malformed(where, `expected a list of sentences (strings), found ${describeType(value)}`)
  }
  return trimSentences(value as string[])
}

const looksLikeRecord = (value: Record<string, unknown>): boolean =>
  typeof value.title === 'string' && (value.sentences !== undefined || value.text !== undefined || value.paragraph_text !== undefined)

function passageFromRecord(record: JsonRecord, fileName: string): TitledPassage {
  const { value, where } = recordObject(record, fileName)
  const title = stringField(value, ['title'], where, { allowEmpty: true })
  if (value.sentences !== undefined) {
    const sentences = sentencesOf(value.sentences, `${where}, field "sentences"`)
    if (joinSentences(sentences).trim() === '') throw malformed(where, 'field "sentences" has no text')
    return { title, sentences, text: joinSentences(sentences), index: record.index }
  }
  return { title, text: stringField(value, ['text', 'paragraph_text'], where), index: record.index }
}

/**
 * A corpus file that sits next to a benchmark's questions, in any of the shapes the benchmark
 * releases use: a dict `title -> [sentences]` or `title -> text` (HippoRAG's `*_corpus.json`), or records
 * `{title, text}` / `{title, sentences}` as a JSON array or JSONL.
 */
export async function readTitledCorpus(path: string, options: ImportOptions = {}): Promise<TitledPassage[]> {
  const { name, text } = await readBenchmarkFile(path, options)
  if (text.trimStart().startsWith('{')) {
    let whole: unknown
    try {
      whole = JSON.parse(text)
    } catch {
      whole = undefined // not one JSON value: JSONL records, read below
    }
    if (isPlainObject(whole) && !looksLikeRecord(whole)) {
      const entries = Object.entries(whole)
      if (entries.length === 0) throw new IngestFileError('empty', `${name}: the corpus has no entries`)
      return entries.map(([title, value], index) => {
        const where = `${name}, entry "${title}"`
        if (typeof value === 'string') {
          if (value.trim() === '') throw malformed(where, 'the passage has no text')
          return { title, text: value.trim(), index }
        }
        const sentences = sentencesOf(value, where)
        if (joinSentences(sentences).trim() === '') throw malformed(where, 'the passage has no text')
        return { title, sentences, text: joinSentences(sentences), index }
      })
    }
  }
  return jsonOrJsonlRecords(text, name).map((record) => passageFromRecord(record, name))
}
