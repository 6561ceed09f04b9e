/**
 * One imported row read through the common field names: question / query, answer / answers /
 * golden_answers (a string, an array, or {text: [...]}), and gold evidence as supporting facts
 * ([title, sentence] pairs, {title, sent_id} objects, or HotpotQA's {title: [...], sent_id: [...]}),
 * supporting documents (ids, else titles), titles, file names and quoted sentences. CSV cells holding
 * lists are JSON arrays or values separated by "|".
 */
import type { GoldReference } from '../corpus/gold'

export interface RowQuestion {
  externalId: string | null
  question: string
  answers: string[]
  type: string | null
  refs: GoldReference[]
  /** Scalar fields beyond the known ones (a split by field reads them). */
  fields: Record<string, string>
}

const ID = ['id', '_id', 'qid', 'question_id', 'questionId', 'external_id']
const QUESTION = ['question', 'query', 'question_text', 'q']
const ANSWERS = ['answers', 'answer', 'golden_answers', 'gold_answers', 'answer_aliases', 'aliases']
const TYPE = ['type', 'question_type']
const FACTS = ['supporting_facts', 'supportingFacts', 'sp', 'facts']
const DOCS = ['supporting_docs', 'supportingDocs', 'supporting_documents', 'gold_docs', 'gold_documents', 'doc_ids', 'document_ids', 'documents', 'docs']
const TITLES = ['titles', 'supporting_titles', 'gold_titles']
const FILES = ['files', 'supporting_files', 'gold_files', 'file_names', 'filenames']
const SENTENCES = ['sentences', 'supporting_sentences', 'gold_sentences', 'quotes', 'evidence_sentences']
const EVIDENCE = ['gold', 'evidence']
const KNOWN = new Set([...ID, ...QUESTION, ...ANSWERS, ...TYPE, ...FACTS, ...DOCS, ...TITLES, ...FILES, ...SENTENCES, ...EVIDENCE])

class RowError extends Error {}

const present = (row: Record<string, unknown>, names: readonly string[]): [string, unknown][] =>
  names.filter((n) => Object.hasOwn(row, n) && row[n] !== null && row[n] !== undefined && row[n] !== '').map((n) => [n, row[n]])

/** A CSV cell that holds a list: JSON, else "|"-separated. JSON input passes through. */
function listOf(value: unknown, csv: boolean): unknown {
  if (!csv || typeof value !== 'string') return value
  const t = value.trim()
  if (t.startsWith('[') || t.startsWith('{')) {
    try {
      return JSON.parse(t)
    } catch {
      throw new RowError(`invalid JSON in a CSV cell: ${t.slice(0, 60)}`)
    }
  }
  return t.split('|').map((s) => s.trim()).filter((s) => s !== '')
}

function strings(field: string, value: unknown): string[] {
  const one = (v: unknown): string => {
    if (typeof v === 'string') return v.trim()
    if (typeof v === 'number' && Number.isFinite(v)) return String(v)
    throw new RowError(`${field}: expected text, got ${Array.isArray(v) ? 'an array' : typeof v}`)
  }
  if (Array.isArray(value)) return value.map(one).filter((s) => s !== '')
  if (value !== null && typeof value === 'object' && Array.isArray((value as { text?: unknown }).text)) return strings(field, (value as { text: unknown[] }).text)
  return [one(value)].filter((s) => s !== '')
}

function facts(field: string, value: unknown): GoldReference[] {
  // HotpotQA as published by HF datasets: {title: [...], sent_id: [...]}.
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const { title, sent_id: ids } = value as { title?: unknown; sent_id?: unknown }
    if (Array.isArray(title) && Array.isArray(ids) && title.length === ids.length) return title.map((t: unknown, i) => fact(field, [t, ids[i]]))
    return [fact(field, value)]
  }
  if (!Array.isArray(value)) throw new RowError(`${field}: expected [title, sentence] pairs`)
  return value.map((f) => fact(field, f))
}

function fact(field: string, f: unknown): GoldReference {
  let title: unknown
  let sentence: unknown
  if (Array.isArray(f)) [title, sentence] = f
  else if (f !== null && typeof f === 'object') {
    const o = f as Record<string, unknown>
    title = o.title ?? o.document
    sentence = o.sent_id ?? o.sentence ?? o.sentence_id ?? o.sent
  }
  if (typeof sentence === 'string' && /^\d+$/.test(sentence.trim())) sentence = Number(sentence)
  if (typeof title !== 'string' || typeof sentence !== 'number' || !Number.isInteger(sentence) || sentence < 0) {
    throw new RowError(`${field}: each fact is [title, sentence index] (got ${JSON.stringify(f)?.slice(0, 80)})`)
  }
  return { kind: 'fact', title, sentence }
}

/** One item of a generic gold / evidence list: {document|doc_id|id}, {title}, {file}, {sentence|text, document?}, {title, sentence: n}, or a string (a document). */
function evidenceItem(field: string, item: unknown): GoldReference {
  if (typeof item === 'string') return { kind: 'document', value: item }
  if (Array.isArray(item)) return fact(field, item)
  if (item === null || typeof item !== 'object') throw new RowError(`${field}: expected objects or strings, got ${typeof item}`)
  const o = item as Record<string, unknown>
  const text = o.sentence ?? o.text ?? o.quote
  if (typeof text === 'string') {
    const doc = o.document ?? o.doc ?? o.title
    return { kind: 'sentence', text, ...(typeof doc === 'string' ? { document: doc } : {}) }
  }
  if (typeof o.title === 'string' && (typeof o.sentence === 'number' || typeof o.sent_id === 'number')) return fact(field, o)
  const doc = o.document ?? o.doc ?? o.doc_id ?? o.document_id ?? o.id
  if (typeof doc === 'string' || typeof doc === 'number') return { kind: 'document', value: String(doc) }
  if (typeof o.title === 'string') return { kind: 'title', value: o.title }
  if (typeof o.file === 'string') return { kind: 'file', value: o.file }
  throw new RowError(`${field}: cannot tell what ${JSON.stringify(item).slice(0, 80)} names`)
}

/** The row as a question, or a reason it cannot be one. */
export function rowQuestion(value: unknown, csv: boolean): RowQuestion | { error: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { error: `expected an object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}` }
  const row = value as Record<string, unknown>
  try {
    const q = present(row, QUESTION)[0]
    if (!q) return { error: `no question (${QUESTION.join(' / ')})` }
    if (typeof q[1] !== 'string' || q[1].trim() === '') return { error: `${q[0]}: expected text, got ${typeof q[1]}` }
    const answers = [...new Set(present(row, ANSWERS).flatMap(([n, v]) => strings(n, listOf(v, csv))))]
    if (answers.length === 0) return { error: `no answer (${ANSWERS.slice(0, 3).join(' / ')})` }
    const idField = present(row, ID)[0]
    const typeField = present(row, TYPE)[0]
    const refs: GoldReference[] = []
    for (const [n, v] of present(row, FACTS)) refs.push(...facts(n, listOf(v, csv)))
    for (const [n, v] of present(row, DOCS)) refs.push(...strings(n, listOf(v, csv)).map((value): GoldReference => ({ kind: 'document', value })))
    for (const [n, v] of present(row, TITLES)) refs.push(...strings(n, listOf(v, csv)).map((value): GoldReference => ({ kind: 'title', value })))
    for (const [n, v] of present(row, FILES)) refs.push(...strings(n, listOf(v, csv)).map((value): GoldReference => ({ kind: 'file', value })))
    for (const [n, v] of present(row, SENTENCES)) {
      const list = listOf(v, csv)
      for (const item of Array.isArray(list) ? list : [list]) refs.push(typeof item === 'string' ? { kind: 'sentence', text: item } : evidenceItem(n, item))
    }
    for (const [n, v] of present(row, EVIDENCE)) {
      const list = listOf(v, csv)
      for (const item of Array.isArray(list) ? list : [list]) refs.push(evidenceItem(n, item))
    }
    const fields: Record<string, string> = {}
    for (const [k, v] of Object.entries(row)) {
      if (KNOWN.has(k)) continue
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') fields[k] = String(v).slice(0, 200)
    }
    return {
      externalId: idField ? String(idField[1]) : null,
      question: q[1].trim(),
      answers,
      type: typeField && typeof typeField[1] === 'string' ? typeField[1] : null,
      refs,
      fields,
    }
  } catch (err) {
    if (err instanceof RowError) return { error: err.message }
    throw err
  }
}
