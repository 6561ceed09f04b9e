import { isPlainObject, jsonOrJsonlRecords } from '../parsers/records'
import type { GoldQuestion, ParsedSource, SourceDocument } from '../types'
import { arrayField, malformed, readBenchmarkFile, recordObject, stringField, uniqueAnswers, type ImportOptions } from './fields'

/*
 * FlashRAG / BEIR-style releases: a corpus JSONL `{id, contents}` whose contents is the title on the
 * first line (usually in double quotes) and the passage after it, and a QA JSONL
 * `{id, question, golden_answers}` without gold evidence. Corpora that already split `{id, title, text}`
 * are read too. Either file may come alone.
 */

export interface FlashRagFiles {
  questionsFile?: string
  corpusFile?: string
}

/** Title and passage of a `contents` field: first line (one pair of surrounding quotes removed) and the rest. */
export function splitContents(contents: string): { title: string; text: string } {
  const newline = contents.indexOf('\n')
  if (newline < 0) return { title: '', text: contents.trim() }
  const firstLine = contents.slice(0, newline).trim()
  const title = /^"(.*)"$/s.exec(firstLine)?.[1] ?? firstLine
  return { title: title.trim(), text: contents.slice(newline + 1).trim() }
}

async function corpusDocuments(path: string, options: ImportOptions): Promise<SourceDocument[]> {
  const { name, text } = await readBenchmarkFile(path, options)
  const seen = new Map<string, string>()
  return jsonOrJsonlRecords(text, name).map((record) => {
    const { value, where } = recordObject(record, name)
    const externalId = stringField(value, ['id', '_id', 'doc_id'], where)
    const earlier = seen.get(externalId)
    if (earlier) throw malformed(where, `passage id "${externalId}" is already used at ${earlier}`)
    seen.set(externalId, where)
    const passage =
      value.contents !== undefined || value.text === undefined
        ? splitContents(stringField(value, ['contents'], where))
        : { title: stringField(value, ['title'], where, { allowEmpty: true }), text: stringField(value, ['text'], where) }
    if (passage.text === '') throw malformed(where, 'field "contents" has a title line but no passage text')
    return {
      externalId,
      title: passage.title,
      text: passage.text,
      source: { path: name, record: record.index, ...(record.offset !== undefined ? { offset: record.offset } : {}) },
    }
  })
}

async function goldQuestions(path: string, options: ImportOptions): Promise<GoldQuestion[]> {
  const { name, text } = await readBenchmarkFile(path, options)
  const seen = new Map<string, string>()
  return jsonOrJsonlRecords(text, name).map((record) => {
    const { value, where } = recordObject(record, name)
    const externalId = stringField(value, ['id', '_id'], where)
    const earlier = seen.get(externalId)
    if (earlier) throw malformed(where, `question id "${externalId}" is already used at ${earlier}`)
    seen.set(externalId, where)
    const answers = arrayField(value, ['golden_answers'], where).map((answer, i) => {
      if (typeof answer !== 'string' && typeof answer !== 'number') throw malformed(where, `golden_answers[${i}] must be a string`)
      return String(answer).trim()
    })
    const unique = uniqueAnswers(answers)
    if (unique.length === 0) throw malformed(where, 'field "golden_answers" has no non-empty answer')
    return {
      externalId,
      question: stringField(value, ['question'], where),
      answers: unique,
      supportingFacts: [],
      supportingDocs: [],
      metadata: { benchmark: 'flashrag', ...(isPlainObject(value.metadata) ? { source: value.metadata } : {}) },
    }
  })
}

export async function importFlashRAG(files: FlashRagFiles, options: ImportOptions = {}): Promise<ParsedSource> {
  if (!files.questionsFile && !files.corpusFile) throw new Error('FlashRAG import needs a corpus file, a questions file, or both')
  return {
    documents: files.corpusFile ? await corpusDocuments(files.corpusFile, options) : [],
    questions: files.questionsFile ? await goldQuestions(files.questionsFile, options) : [],
  }
}
