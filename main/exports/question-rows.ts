/**
 * A question set's rows for the dataset exports, read through the questions repository: gold answers
 * and evidence, the question's split (null when it is in none), and its key on the environment server.
 */
import { ApiError } from '../../preload/contract'
import { corpusRepositories, type WorkspaceHandle } from '../corpus/repository'

const PAGE = 500

/**
 * `split` + `index` as the environment server resolves them: a split label counts every question so
 * labelled in the workspace, in id order; a question in no split is addressed by its set's name and
 * its position in the set (id order). One type per field: split is always a string.
 */
export interface ServerKey {
  split: string
  index: number
}

export interface QuestionRow {
  rowId: number
  externalId: string
  question: string
  answers: string[]
  type: string | null
  supportingFacts: { title: string; sentence: number }[]
  supportingDocs: string[]
  split: string | null
  key: ServerKey
}

export function questionSetOrThrow(raw: WorkspaceHandle, setId: number): { id: number; name: string; source: string; questions: number } {
  const set = corpusRepositories(raw).questions.sets().find((s) => s.id === setId)
  if (!set) throw new ApiError('NOT_FOUND', `No question set with id ${setId} in this workspace`)
  return set
}

export function* questionRows(raw: WorkspaceHandle, setId: number): Generator<QuestionRow> {
  const { questions } = corpusRepositories(raw)
  const set = questionSetOrThrow(raw, setId)
  const labelPositions = new Map<string, Map<number, number>>()
  const positionInLabel = (label: string, id: number): number => {
    let positions = labelPositions.get(label)
    if (!positions) labelPositions.set(label, (positions = new Map(questions.labelIds(label).map((qid, i) => [qid, i]))))
    return positions.get(id)!
  }
  let inSet = 0
  for (let offset = 0; ; offset += PAGE) {
    const page = questions.page(setId, offset, PAGE)
    for (const q of page) {
      // The split column is read through the repository; a workspace from before splits has none.
      const split = (q as { split?: string | null }).split ?? null
      yield {
        rowId: q.id,
        externalId: q.external_id,
        question: q.question,
        answers: JSON.parse(q.answers_json) as string[],
        type: q.type,
        supportingFacts: JSON.parse(q.supporting_facts_json) as QuestionRow['supportingFacts'],
        supportingDocs: JSON.parse(q.supporting_docs_json) as string[],
        split,
        key: split === null ? { split: set.name, index: inSet } : { split, index: positionInLabel(split, q.id) },
      }
      inSet++
    }
    if (page.length < PAGE) return
  }
}
