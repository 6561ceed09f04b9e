import { basename } from 'node:path'
import type { GoldQuestion, ParsedSource, SourceDocument } from '../types'
import { isPlainObject, jsonOrJsonlRecords } from '../parsers/records'
import {
  arrayField,
  malformed,
  optionalStrings,
  readBenchmarkFile,
  recordObject,
  stringField,
  uniqueAnswers,
  type ImportOptions,
} from './fields'
import { readTitledCorpus } from './titled-corpus'

/*
 * MuSiQue records (JSONL, or a JSON array as HippoRAG ships them):
 *   {id, question, answer, answer_aliases?, answerable?, question_decomposition?,
 *    paragraphs: [{idx, title, paragraph_text, is_supporting}]}
 * Gold evidence is at paragraph level only, so supportingFacts stay empty and sentences are left to the
 * splitter. Several paragraphs of one Wikipedia article share a title, so documents are deduplicated by
 * (title, text): the first text seen under a title gets externalId = title, later different texts get
 * "title (2)", "title (3)", ... in order of appearance. supportingDocs holds these externalIds.
 */

export interface MuSiQueFiles {
  questionsFile: string
  /** Optional separate corpus ({title, text} records or a title dict), read before the questions. */
  corpusFile?: string
}

/** The hop pattern MuSiQue encodes in its ids ("2hop__123_456" -> "2hop", "3hop1__..." -> "3hop1"). */
const hopType = (id: string): string | undefined => /^(\d+hop\d*)__/.exec(id)?.[1]

export async function importMuSiQue(files: MuSiQueFiles, options: ImportOptions = {}): Promise<ParsedSource> {
  const documents: SourceDocument[] = []
  const idByContent = new Map<string, string>()
  const versionsByTitle = new Map<string, number>()
  /** The document for (title, text), created on first sight. */
  const documentId = (title: string, text: string, source: SourceDocument['source']): string => {
    const key = `${title}\u0000${text}`
    const known = idByContent.get(key)
    if (known !== undefined) return known
    const version = (versionsByTitle.get(title) ?? 0) + 1
    versionsByTitle.set(title, version)
    const externalId = version === 1 ? title : `${title} (${version})`
    idByContent.set(key, externalId)
    documents.push({ externalId, title, text, source })
    return externalId
  }

  if (files.corpusFile) {
    const path = basename(files.corpusFile)
    for (const passage of await readTitledCorpus(files.corpusFile, options)) {
      documentId(passage.title, passage.text, { path, record: passage.index })
    }
  }

  const { name, text } = await readBenchmarkFile(files.questionsFile, options)
  const questions: GoldQuestion[] = []
  const seenIds = new Map<string, string>()
  for (const record of jsonOrJsonlRecords(text, name)) {
    const { value, where } = recordObject(record, name)
    const externalId = stringField(value, ['id', '_id'], where)
    const earlier = seenIds.get(externalId)
    if (earlier) throw malformed(where, `question id "${externalId}" is already used at ${earlier}`)
    seenIds.set(externalId, where)

    const supportingDocs: string[] = []
    arrayField(value, ['paragraphs'], where).forEach((paragraph, i) => {
      const at = `${where}, paragraphs[${i}]`
      if (!isPlainObject(paragraph)) throw malformed(at, 'expected {title, paragraph_text, is_supporting}')
      const id = documentId(stringField(paragraph, ['title'], at, { allowEmpty: true }), stringField(paragraph, ['paragraph_text'], at), {
        path: name,
        record: record.index,
      })
      if (paragraph.is_supporting === true && !supportingDocs.includes(id)) supportingDocs.push(id)
    })

    const metadata: Record<string, unknown> = { benchmark: 'musique' }
    if (typeof value.answerable === 'boolean') metadata.answerable = value.answerable
    if (Array.isArray(value.question_decomposition)) metadata.decomposition = value.question_decomposition
    const type = hopType(externalId)
    questions.push({
      externalId,
      question: stringField(value, ['question'], where),
      // Unanswerable questions (MuSiQue-Full) may carry an empty answer.
      answers: uniqueAnswers([
        stringField(value, ['answer'], where, { allowEmpty: value.answerable === false }),
        ...optionalStrings(value, 'answer_aliases', where),
      ]),
      ...(type ? { type } : {}),
      supportingFacts: [],
      supportingDocs,
      metadata,
    })
  }
  return { documents, questions }
}
