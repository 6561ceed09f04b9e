/**
 * A question set's rows for the dataset exports, read through the questions repository: gold answers
 * and evidence, the question's split (null when it is in none), and its key on the environment server.
 */
import { ApiError } from '../../preload/contract'
import { corpusRepositories, questionGold, type WorkspaceHandle } from '../corpus/repository'

const PAGE = 500

/**
 * `set` + `split` + `index` as the environment server resolves them (main/env-server/questions.ts):
 * the set's name; the question's split label, and index counting the set's questions of that label in
 * id order; or, for a question in no split, split null and index its position in the whole set. One
 * type per field: set a string, split a string or null, index an integer.
 */
export interface ServerKey {
  set: string
  split: string | null
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

/** The split labels of a set's questions, in first-seen (id) order; `none` says whether some question is in none. */
export function questionSplits(raw: WorkspaceHandle, setId: number): { labels: string[]; none: boolean } {
  const labels = new Set<string>()
  let none = false
  for (const q of questionRows(raw, setId)) {
    if (q.split === null) none = true
    else labels.add(q.split)
  }
  return { labels: [...labels], none }
}

/** The rows of a set, or of one split label of it (the server keys are the same either way: counted over the set). */
export function* questionRows(raw: WorkspaceHandle, setId: number, only?: string): Generator<QuestionRow> {
  const { questions } = corpusRepositories(raw)
  const set = questionSetOrThrow(raw, setId)
  // Pages come in id order, so a running count per label is the position within the set's split.
  const inLabel = new Map<string, number>()
  let inSet = 0
  for (let offset = 0; ; offset += PAGE) {
    const page = questions.page(setId, offset, PAGE)
    for (const q of page) {
      // The split column is read through the repository; a workspace from before splits has none.
      const split = (q as { split?: string | null }).split ?? null
      const index = split === null ? inSet : (inLabel.get(split) ?? 0)
      if (split !== null) inLabel.set(split, index + 1)
      inSet++
      if (only !== undefined && split !== only) continue
      yield {
        rowId: q.id,
        externalId: q.external_id,
        question: q.question,
        type: q.type,
        ...questionGold(q),
        split,
        key: { set: set.name, split, index },
      }
    }
    if (page.length < PAGE) return
  }
}
