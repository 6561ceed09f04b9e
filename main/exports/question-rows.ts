/**
 * A question set's rows for the dataset exports, read through the questions repository: gold answers
 * and evidence, and the question's split (null when it is in none).
 */
import { ApiError } from '../../preload/contract'
import { corpusRepositories, type WorkspaceHandle } from '../corpus/repository'

const PAGE = 500

export interface QuestionRow {
  rowId: number
  externalId: string
  question: string
  answers: string[]
  type: string | null
  supportingFacts: { title: string; sentence: number }[]
  supportingDocs: string[]
  split: string | null
}

export function questionSetOrThrow(raw: WorkspaceHandle, setId: number): { id: number; name: string; source: string; questions: number } {
  const set = corpusRepositories(raw).questions.sets().find((s) => s.id === setId)
  if (!set) throw new ApiError('NOT_FOUND', `No question set with id ${setId} in this workspace`)
  return set
}

export function* questionRows(raw: WorkspaceHandle, setId: number): Generator<QuestionRow> {
  const { questions } = corpusRepositories(raw)
  for (let offset = 0; ; offset += PAGE) {
    const page = questions.page(setId, offset, PAGE)
    for (const q of page) {
      yield {
        rowId: q.id,
        externalId: q.external_id,
        question: q.question,
        answers: JSON.parse(q.answers_json) as string[],
        type: q.type,
        supportingFacts: JSON.parse(q.supporting_facts_json) as QuestionRow['supportingFacts'],
        supportingDocs: JSON.parse(q.supporting_docs_json) as string[],
        // The split column is read through the repository; a workspace from before splits has none.
        split: (q as { split?: string | null }).split ?? null,
      }
    }
    if (page.length < PAGE) return
  }
}
