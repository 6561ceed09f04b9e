/**
 * Writing questions by hand: gold sentences and documents are picked by id (from search results or
 * the document reader) and stored as the names every load resolves ([title, ord] facts, external ids).
 */
import type { QuestionDetail, QuestionEdit, QuestionProvenance } from '../../preload/contract'
import { resolveGold } from '../corpus/gold'
import { corpusRepositories, questionColumns, type WorkspaceHandle } from '../corpus/repository'
import { QuestionSetError } from './errors'
import { assertSplitsNotUsed } from './splits'
import type { QuestionUsage } from './usage'
import { toDetail } from './view'

export function createQuestionSet(raw: WorkspaceHandle, name: string): number {
  const repo = corpusRepositories(raw).questions
  if (repo.setIdByName(name) !== undefined) throw new QuestionSetError('conflict', `A question set named "${name}" exists already: pick another name`)
  return repo.createSet(name, 'manual')
}

/** The stored gold names of picked sentences and documents (unknown ids are an error, nothing is dropped). */
function goldNames(raw: WorkspaceHandle, edit: QuestionEdit): { supportingFacts: { title: string; sentence: number }[]; supportingDocs: string[] } {
  const lookup = corpusRepositories(raw).questionGold
  const facts: { title: string; sentence: number }[] = []
  const docs: string[] = []
  for (const id of new Set(edit.sentenceIds)) {
    const s = lookup.sentence(id)
    if (!s) throw new QuestionSetError('invalid', `No sentence ${id} in this corpus`)
    facts.push({ title: s.title, sentence: s.ord })
    docs.push(s.externalId)
  }
  for (const id of new Set(edit.documentIds)) {
    const d = lookup.document(id)
    if (!d) throw new QuestionSetError('invalid', `No document ${id} in this corpus`)
    docs.push(d.externalId)
  }
  return { supportingFacts: facts, supportingDocs: [...new Set(docs)] }
}

/** Adds a question (no questionId) or edits one; returns it with its gold resolved. */
export function saveQuestion(raw: WorkspaceHandle, setId: number, questionId: number | undefined, edit: QuestionEdit): QuestionDetail {
  const repo = corpusRepositories(raw).questions
  if (!repo.set(setId)) throw new QuestionSetError('not-found', `No question set ${setId}`)
  const names = goldNames(raw, edit)
  const fields = { question: edit.question, answersJson: JSON.stringify(edit.answers), type: edit.type, supportingFactsJson: JSON.stringify(names.supportingFacts), supportingDocsJson: JSON.stringify(names.supportingDocs) }
  let id = questionId
  if (id === undefined) {
    const provenance: QuestionProvenance = { origin: 'manual' }
    id = repo.insert(setId, { ...fields, externalId: repo.nextExternalId(setId), split: null, metaJson: JSON.stringify(provenance) })
  } else {
    const before = repo.one(setId, id)
    if (!before) throw new QuestionSetError('not-found', `No question ${id} in set ${setId}`)
    // The origin stays on record, marked as no longer the origin's text (a rewrite label must not outlive an edit).
    const provenance: QuestionProvenance = questionColumns.meta.readNullable(before.meta_json) ?? { origin: 'manual' }
    if (provenance.origin !== 'manual') provenance.editedByHand = true
    repo.update(setId, id, { ...fields, metaJson: JSON.stringify(provenance) })
  }
  const row = repo.one(setId, id)!
  return toDetail(raw, row, resolveGold(raw, names))
}

/** Deletes a question; refused when it is in a split a run has used. */
export function deleteQuestion(raw: WorkspaceHandle, usage: QuestionUsage, setId: number, questionId: number): boolean {
  const repo = corpusRepositories(raw).questions
  const row = repo.one(setId, questionId)
  if (!row) throw new QuestionSetError('not-found', `No question ${questionId} in set ${setId}`)
  if (row.split !== null) assertSplitsNotUsed(usage, setId, `delete question ${questionId} (split ${row.split})`)
  return repo.remove(setId, questionId)
}
