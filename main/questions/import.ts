/**
 * Importing a question set for an ingested corpus. Every gold item is resolved against the corpus on
 * import (main/corpus/gold.ts, the one resolver); what cannot be pinned is listed with its line, and a
 * bad row is reported with its line while the good rows are kept. The set and its questions are
 * written in one transaction.
 */
import type { ImportIssue, ImportReport, QuestionProvenance } from '../../preload/contract'
import { resolveGoldReferences, workspaceReferenceCatalogue } from '../corpus/gold'
import { corpusRepositories, type WorkspaceHandle } from '../corpus/repository'
import { formatOf, readRows, type RowFormat } from './read-rows'
import { rowQuestion } from './row-fields'
import { QuestionSetError } from './errors'

export interface ImportInput {
  name: string
  text: string
  format?: RowFormat
  fileName?: string
}

export interface ImportOutcome {
  setId: number
  report: ImportReport
}

const MAX_LISTED = 5000

export function importQuestionSet(raw: WorkspaceHandle, input: ImportInput): ImportOutcome {
  const repo = corpusRepositories(raw).questions
  if (repo.setIdByName(input.name) !== undefined) throw new QuestionSetError('conflict', `A question set named "${input.name}" exists already: pick another name`)
  const format = input.format ?? formatOf(input.fileName, input.text)
  const { rows } = readRows(input.text, format)
  const catalogue = workspaceReferenceCatalogue(raw)
  const badRows: ImportIssue[] = []
  const unresolved: ImportIssue[] = []
  const kept: { line: number; q: Exclude<ReturnType<typeof rowQuestion>, { error: string }>; names: ReturnType<typeof resolveGoldReferences>['names'] }[] = []
  const seen = new Map<string, number>()
  for (const row of rows) {
    if ('error' in row) {
      badRows.push({ line: row.line, question: null, item: null, reason: row.error })
      continue
    }
    const q = rowQuestion(row.value, format === 'csv')
    if ('error' in q) {
      badRows.push({ line: row.line, question: null, item: null, reason: q.error })
      continue
    }
    const externalId = q.externalId ?? `line-${row.line}`
    const first = seen.get(externalId)
    if (first !== undefined) {
      badRows.push({ line: row.line, question: q.question, item: null, reason: `duplicate id "${externalId}" (first on line ${first})` })
      continue
    }
    seen.set(externalId, row.line)
    const resolved = resolveGoldReferences(catalogue, q.refs)
    for (const u of resolved.unresolved) unresolved.push({ line: row.line, question: q.question, item: u.item, reason: u.reason })
    if (q.refs.length === 0) unresolved.push({ line: row.line, question: q.question, item: null, reason: 'no gold evidence given (the question is kept; evidence metrics will have nothing to cover)' })
    kept.push({ line: row.line, q: { ...q, externalId }, names: resolved.names })
  }
  const report: ImportReport = { format, rows: rows.length, imported: kept.length, badRows: badRows.slice(0, MAX_LISTED), unresolved: unresolved.slice(0, MAX_LISTED) }
  const setId = raw.transaction(() => {
    const id = repo.createSet(input.name, `import:${format}${input.fileName ? `:${input.fileName.split(/[\\/]/).pop()}` : ''}`, JSON.stringify(report))
    for (const { line, q, names } of kept) {
      const provenance: QuestionProvenance = { origin: 'import', line, ...(Object.keys(q.fields).length > 0 ? { fields: q.fields } : {}) }
      repo.insert(id, {
        externalId: q.externalId!,
        question: q.question,
        answersJson: JSON.stringify(q.answers),
        type: q.type,
        supportingFactsJson: JSON.stringify(names.supportingFacts),
        supportingDocsJson: JSON.stringify(names.supportingDocs),
        split: null,
        metaJson: JSON.stringify(provenance),
      })
    }
    return id
  }).immediate()
  return { setId, report }
}
