import { basename } from 'node:path'
import { describeType, isPlainObject, jsonOrJsonlRecords } from '../parsers/records'
import type { GoldQuestion, ParsedSource, SourceDocument, SupportingFact } from '../types'
import {
  malformed,
  optionalStrings,
  readBenchmarkFile,
  recordObject,
  requireField,
  stringField,
  uniqueAnswers,
  type ImportOptions,
} from './fields'
import { joinSentences, readTitledCorpus, trimSentences } from './titled-corpus'

/*
 * HotpotQA and 2WikiMultiHopQA share one record shape:
 *   {_id, question, answer, type, supporting_facts: [[title, sent_id]], context: [[title, [sentences]]]}
 * (HotpotQA adds `level`, 2Wiki adds `evidences` triples). The Hugging Face exports use columnar
 * objects instead ({title: [...], sentences: [[...]]} and {title: [...], sent_id: [...]}); both are read.
 *
 * Documents are the context paragraphs deduplicated by title, with externalId = title, so gold
 * supportingDocs (titles) are document ids. Sentences are trimmed but never dropped or merged, so
 * sent_id indexes `sentences` directly. A corpus file, when given, is read first and is where a title's
 * document comes from; a paragraph that appears again with different sentences keeps the first version
 * and is counted in the document's metadata.conflictingVersions.
 */

export type HotpotStyleKind = 'hotpotqa' | '2wikimultihopqa'

export interface HotpotFiles {
  questionsFile: string
  /** Optional `title -> [sentences]` dict (HippoRAG's `*_corpus.json`) or `{title, text}` records. */
  corpusFile?: string
}

interface Paragraph {
  title: string
  sentences: string[]
}

function contextParagraphs(value: Record<string, unknown>, where: string): Paragraph[] {
  const { name, field } = requireField(value, ['context'], where)
  if (isPlainObject(field)) {
    const titles = field.title
    const sentences = field.sentences
    if (!Array.isArray(titles) || !Array.isArray(sentences) || titles.length !== sentences.length) {
      throw malformed(where, `field "${name}" must be [[title, [sentences]], ...] or {title: [...], sentences: [[...], ...]} of equal lengths`)
    }
    return titles.map((title, i) => paragraph([title, sentences[i]], `${where}, context[${i}]`))
  }
  if (!Array.isArray(field)) throw malformed(where, `field "${name}" must be a list of [title, [sentences]] pairs, found ${describeType(field)}`)
  return field.map((entry, i) => paragraph(entry, `${where}, context[${i}]`))
}

function paragraph(entry: unknown, where: string): Paragraph {
  if (!Array.isArray(entry) || entry.length < 2 || typeof entry[0] !== 'string' || !Array.isArray(entry[1])) {
    throw malformed(where, 'expected [title, [sentences]]')
  }
  const sentences = entry[1] as unknown[]
  if (sentences.some((sentence) => typeof sentence !== 'string')) throw malformed(where, `the sentences of "${entry[0]}" must be strings`)
  return { title: entry[0], sentences: trimSentences(sentences as string[]) }
}

function supportingFacts(value: Record<string, unknown>, where: string): SupportingFact[] {
  const { name, field } = requireField(value, ['supporting_facts'], where)
  let pairs: unknown[]
  if (isPlainObject(field)) {
    const { title: titles, sent_id: ids } = field
    if (!Array.isArray(titles) || !Array.isArray(ids) || titles.length !== ids.length) {
      throw malformed(where, `field "${name}" must be [[title, sentence index], ...] or {title: [...], sent_id: [...]} of equal lengths`)
    }
    pairs = titles.map((title, i) => [title, ids[i]])
  } else if (Array.isArray(field)) {
    pairs = field
  } else {
    throw malformed(where, `field "${name}" must be a list of [title, sentence index] pairs, found ${describeType(field)}`)
  }
  return pairs.map((pair, i) => {
    if (!Array.isArray(pair) || typeof pair[0] !== 'string' || !Number.isInteger(pair[1])) {
      throw malformed(where, `supporting_facts[${i}] must be [title, sentence index], found ${JSON.stringify(pair)?.slice(0, 80)}`)
    }
    return { title: pair[0], sentence: pair[1] as number }
  })
}

interface DocumentEntry {
  document: SourceDocument & { sentences: string[] | undefined }
  conflicts: number
}

const sameSentences = (a: readonly string[] | undefined, b: readonly string[]): boolean =>
  a !== undefined && a.length === b.length && a.every((sentence, i) => sentence === b[i])

async function importHotpotStyle(kind: HotpotStyleKind, files: HotpotFiles, options: ImportOptions): Promise<ParsedSource> {
  const documents = new Map<string, DocumentEntry>()

  if (files.corpusFile) {
    const path = basename(files.corpusFile)
    for (const passage of await readTitledCorpus(files.corpusFile, options)) {
      if (documents.has(passage.title)) continue // a dict cannot repeat a key; records can, and the first wins
      documents.set(passage.title, {
        document: {
          externalId: passage.title,
          title: passage.title,
          text: passage.text,
          sentences: passage.sentences,
          source: { path, record: passage.index },
        },
        conflicts: 0,
      })
    }
  }

  const { name, text } = await readBenchmarkFile(files.questionsFile, options)
  const questions: GoldQuestion[] = []
  const seenIds = new Map<string, string>()

  for (const record of jsonOrJsonlRecords(text, name)) {
    const { value, where } = recordObject(record, name)
    const externalId = stringField(value, ['_id', 'id'], where)
    const earlier = seenIds.get(externalId)
    if (earlier) throw malformed(where, `question id "${externalId}" is already used at ${earlier}`)
    seenIds.set(externalId, where)

    const context = new Map<string, string[]>()
    for (const { title, sentences } of contextParagraphs(value, where)) {
      if (!context.has(title)) context.set(title, sentences)
      const entry = documents.get(title)
      if (!entry) {
        documents.set(title, {
          document: { externalId: title, title, text: joinSentences(sentences), sentences, source: { path: name, record: record.index } },
          conflicts: 0,
        })
      } else if (entry.document.sentences === undefined && entry.document.text === joinSentences(sentences)) {
        entry.document.sentences = sentences // a corpus given as plain text: the context supplies the split
      } else if (!sameSentences(entry.document.sentences, sentences)) {
        entry.conflicts++
      }
    }

    // A fact counts when its sentence exists in the stored document and is the sentence this question's
    // own context has at that index; anything else is kept visible in metadata rather than dropped.
    const resolved: SupportingFact[] = []
    const unresolved: SupportingFact[] = []
    for (const fact of supportingFacts(value, where)) {
      const stored = documents.get(fact.title)?.document.sentences
      const own = context.get(fact.title)
      const ok = stored !== undefined && fact.sentence >= 0 && fact.sentence < stored.length && (own === undefined || own[fact.sentence] === stored[fact.sentence])
      ;(ok ? resolved : unresolved).push(fact)
    }
    const supportingDocs = [...new Set([...resolved, ...unresolved].map((fact) => fact.title))].filter((title) => documents.has(title))

    const metadata: Record<string, unknown> = { benchmark: kind }
    if (typeof value.level === 'string') metadata.level = value.level
    if (Array.isArray(value.evidences)) metadata.evidences = value.evidences
    if (unresolved.length > 0) metadata.unresolvedSupportingFacts = unresolved

    questions.push({
      externalId,
      question: stringField(value, ['question'], where),
      answers: uniqueAnswers([
        stringField(value, ['answer'], where),
        ...optionalStrings(value, 'answer_aliases', where),
        ...optionalStrings(value, 'aliases', where),
      ]),
      ...(typeof value.type === 'string' && value.type !== '' ? { type: value.type } : {}),
      supportingFacts: resolved,
      supportingDocs,
      metadata,
    })
  }

  return {
    documents: [...documents.values()].map(({ document, conflicts }) => {
      const { sentences, ...rest } = document
      return {
        ...rest,
        ...(sentences ? { sentences } : {}),
        ...(conflicts > 0 ? { metadata: { conflictingVersions: conflicts } } : {}),
      }
    }),
    questions,
  }
}

/** HotpotQA (distractor or fullwiki dumps, original or Hugging Face layout), optionally with a separate corpus file. */
export const importHotpotQA = (files: HotpotFiles, options: ImportOptions = {}): Promise<ParsedSource> =>
  importHotpotStyle('hotpotqa', files, options)

/** 2WikiMultiHopQA: HotpotQA's layout plus `evidences` triples, kept in question metadata. */
export const import2WikiMultiHopQA = (files: HotpotFiles, options: ImportOptions = {}): Promise<ParsedSource> =>
  importHotpotStyle('2wikimultihopqa', files, options)
