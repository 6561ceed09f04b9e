import type SQLite from 'better-sqlite3'
import type { EnvQuestion } from '../harness/types'

export interface StoredQuestion extends EnvQuestion {
  rowId: number
}

/** A split of a stored question set, in a stable order (by id). */
export function loadQuestions(raw: SQLite.Database, setId: number, offset: number, limit: number): StoredQuestion[] {
  const rows = raw
    .prepare('select id, question, answers_json, supporting_facts_json, supporting_docs_json from questions where set_id = ? order by id limit ? offset ?')
    .all(setId, limit, offset) as { id: number; question: string; answers_json: string; supporting_facts_json: string; supporting_docs_json: string }[]
  return rows.map((r) => ({
    rowId: r.id,
    id: String(r.id),
    question: r.question,
    answers: JSON.parse(r.answers_json) as string[],
    supportingFacts: JSON.parse(r.supporting_facts_json) as EnvQuestion['supportingFacts'],
    supportingDocs: JSON.parse(r.supporting_docs_json) as string[],
  }))
}

/** Identifies the corpus an evaluation ran on: files with their content hashes and the chunking settings. */
export function corpusSignature(raw: SQLite.Database): string {
  const files = raw.prepare("select path || '=' || sha256 from source_files where status = 'ok' order by path").pluck().all() as string[]
  const chunking = (raw.prepare("select value from meta where key = 'chunking'").pluck().get() as string | undefined) ?? ''
  let h = 0x811c9dc5
  for (const ch of `${chunking}\n${files.join('\n')}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0
  return `${files.length}files-${h.toString(16).padStart(8, '0')}`
}
