/**
 * Importing a question set for an ingested corpus. Every gold item is resolved against the corpus on
 * import (main/corpus/gold.ts, the one resolver); what cannot be pinned is listed with its line, and a
 * bad row is reported with its line while the good rows are kept. The set and its questions are
 * written in one transaction, so an import that stops early leaves nothing. The file is read a row
 * at a time in one pass (read-rows.ts) by questionImportSteps, which stops after every row: the
 * questions.import job (main/job-kinds/questions-import.ts) runs it in a worker thread and checks
 * for cancellation there; importQuestionSetAsync runs it on the calling thread, pausing every few
 * milliseconds (the bench's in-process peer).
 */
import type { ImportIssue, ImportReport, QuestionProvenance } from '../../preload/contract'
import { resolveGoldReferences, workspaceReferenceCatalogue } from '../corpus/gold'
import { corpusRepositories, type WorkspaceHandle } from '../corpus/repository'
import { formatOf, rowsOf, type RawRow, type RowFormat } from './read-rows'
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

/** Time between pauses of importQuestionSetAsync: short enough for other requests to be answered promptly. */
const SLICE_MS = 20
/** Rows whose gold names are looked up together. */
const BATCH = 500

export function importQuestionSet(raw: WorkspaceHandle, input: ImportInput): ImportOutcome {
  const steps = questionImportSteps(raw, input)
  for (let s = steps.next(); ; s = steps.next()) if (s.done) return s.value
}

/** importQuestionSet that yields to the event loop every SLICE_MS while it reads and resolves rows. */
export async function importQuestionSetAsync(raw: WorkspaceHandle, input: ImportInput): Promise<ImportOutcome> {
  const steps = questionImportSteps(raw, input)
  let slice = performance.now()
  for (let s = steps.next(); ; s = steps.next()) {
    if (s.done) return s.value
    if (performance.now() - slice >= SLICE_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve))
      slice = performance.now()
    }
  }
}

/** Where an import is when it stops: the line of the row it reached, or the write that follows. */
export interface ImportStep {
  stage: 'reading' | 'writing'
  line: number
}

/** The import, stopping after each row (a point where it may pause or be cancelled) and returning the outcome. */
export function* questionImportSteps(raw: WorkspaceHandle, input: ImportInput): Generator<ImportStep, ImportOutcome> {
  const repo = corpusRepositories(raw).questions
  if (repo.setIdByName(input.name) !== undefined) throw new QuestionSetError('conflict', `A question set named "${input.name}" exists already: pick another name`)
  const format = input.format ?? formatOf(input.fileName, input.text)
  const catalogue = workspaceReferenceCatalogue(raw)
  const badRows: ImportIssue[] = []
  const unresolved: ImportIssue[] = []
  const kept: { line: number; q: Exclude<ReturnType<typeof rowQuestion>, { error: string }>; names: ReturnType<typeof resolveGoldReferences>['names'] }[] = []
  const seen = new Map<string, number>()
  let rows = 0
  const take = (row: RawRow, q: ReturnType<typeof rowQuestion>): void => {
    if ('error' in row) {
      badRows.push({ line: row.line, question: null, item: null, reason: row.error })
      return
    }
    if ('error' in q) {
      badRows.push({ line: row.line, question: null, item: null, reason: q.error })
      return
    }
    const externalId = q.externalId ?? `line-${row.line}`
    const first = seen.get(externalId)
    if (first !== undefined) {
      badRows.push({ line: row.line, question: q.question, item: null, reason: `duplicate id "${externalId}" (first on line ${first})` })
      return
    }
    seen.set(externalId, row.line)
    const resolved = resolveGoldReferences(catalogue, q.refs)
    for (const u of resolved.unresolved) unresolved.push({ line: row.line, question: q.question, item: u.item, reason: u.reason })
    if (q.refs.length === 0) unresolved.push({ line: row.line, question: q.question, item: null, reason: 'no gold evidence given (the question is kept; evidence metrics will have nothing to cover)' })
    kept.push({ line: row.line, q: { ...q, externalId }, names: resolved.names })
  }
  // Rows go in batches: the names a batch refers to are looked up with one query, not one per name.
  let batch: { row: RawRow; q: ReturnType<typeof rowQuestion> }[] = []
  function* flush(): Generator<ImportStep> {
    catalogue.prefetch(batch.flatMap(({ q }) => ('error' in q ? [] : q.refs.flatMap((r) => (r.kind === 'document' || r.kind === 'title' ? [r.value] : r.kind === 'fact' ? [r.title] : [])))))
    for (const { row, q } of batch) {
      take(row, q)
      yield { stage: 'reading', line: row.line }
    }
    batch = []
  }
  for (const row of rowsOf(input.text, format)) {
    rows++
    batch.push({ row, q: 'error' in row ? { error: row.error } : rowQuestion(row.value, format === 'csv') })
    if (batch.length === BATCH) yield* flush()
    yield { stage: 'reading', line: row.line }
  }
  yield* flush()
  const report: ImportReport = { format, rows, imported: kept.length, badRows: badRows.slice(0, MAX_LISTED), unresolved: unresolved.slice(0, MAX_LISTED) }
  yield { stage: 'writing', line: 0 }
  const setId = raw.transaction(() => {
    // Checked again, inside the write lock: another import (another thread or process) may have taken the name meanwhile.
    if (repo.setIdByName(input.name) !== undefined) throw new QuestionSetError('conflict', `A question set named "${input.name}" exists already: pick another name`)
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
