/**
 * Which question an episode is about: by questions.id, or by set + optional split + index. The set is a
 * question set (its id as a number, or its name); the split, when given, a split label stored on the
 * questions ('train', 'dev', ...); index counts from 0 in id order within the set, or within the set's
 * questions of that split, so a trainer's dataset row N of a split is question N of it.
 * The older key, split + index without a set (a set id or name, or a label over the whole workspace),
 * is still served: datasets exported before the set field carry it.
 */
import type SQLite from 'better-sqlite3'
import { workspaceRevisions } from '../corpus/repository'
import { loadQuestions, type StoredQuestion } from '../experiments/questions'
import { QuestionKeyQueries } from './question-queries'

export class QuestionLookupError extends Error {
  constructor(readonly field: string, message: string) {
    super(message)
    this.name = 'QuestionLookupError'
  }
}

/**
 * The question of a request that names none (OpenEnv's bare `reset(seed=...)`): number `seed` of the
 * workspace's first question set that holds questions, counted round; read when asked, so a new set counts.
 */
export function defaultQuestionOf(raw: SQLite.Database): (seed: number) => { set: number; index: number } {
  const q = new QuestionKeyQueries(raw)
  return (seed) => {
    const first = q.firstSet.get()
    if (!first) throw new QuestionLookupError('question_id', 'This workspace has no questions: import or generate a question set first')
    return { set: first.id, index: seed % first.n }
  }
}

export class QuestionLookup {
  private readonly q: QuestionKeyQueries
  /**
   * Loaded questions (gold resolved once) by row id: episodes of a group ask for the same question. Kept
   * while the questions and the corpus (which the gold is resolved against) stay at the revisions they
   * were loaded at: an edit in the app, or a new ingest, is served from the next episode on.
   */
  private readonly cache = new Map<number, StoredQuestion>()
  private readonly revisions: ReturnType<typeof workspaceRevisions>
  private cachedAt = ''

  constructor(private readonly raw: SQLite.Database) {
    this.q = new QuestionKeyQueries(raw)
    this.revisions = workspaceRevisions(raw)
  }

  /** Question `index` of a set (by id or name), counted within its split label when one is given. */
  bySet(set: number | string, split: string | undefined, index: number): StoredQuestion {
    this.refresh()
    const row = typeof set === 'number' ? this.q.setById.get(set) : this.q.setNamed.get(set)
    if (!row) throw new QuestionLookupError('set', typeof set === 'number' ? `No question set with id ${set} in this workspace` : `No question set named "${set}" in this workspace`)
    const what = `question set "${row.name}" (${row.id})`
    if (split === undefined) return this.inSet(row.id, index, what, 'set')
    const n = this.q.setSplitCount.get(row.id, split)!.n
    if (n === 0) {
      const labels = this.q.setSplits.all(row.id).map((r) => r.split)
      throw new QuestionLookupError('split', `${what} has no questions in split "${split}"; ${labels.length ? `its splits: ${labels.join(', ')}` : 'it has no splits (leave split out to count over the whole set)'}`)
    }
    const hit = this.q.inSetSplit.get(row.id, split, index)
    if (!hit) throw new QuestionLookupError('index', `Split "${split}" of ${what} has ${n} questions; index ${index} is out of range`)
    return this.withId(hit.id)
  }

  byId(questionId: number): StoredQuestion {
    this.refresh()
    return this.withId(questionId)
  }

  bySplit(split: number | string, index: number): StoredQuestion {
    this.refresh()
    if (typeof split === 'number') return this.inSet(split, index, `question set ${split}`)
    const named = this.q.setByName.get(split)
    if (named) return this.inSet(named.id, index, `question set "${split}"`)
    const n = this.q.splitCount.get(split)!.n
    if (n === 0) throw new QuestionLookupError('split', `No question set and no split named "${split}" in this workspace`)
    const row = this.q.bySplitLabel.get(split, index)
    if (!row) throw new QuestionLookupError('index', `Split "${split}" has ${n} questions; index ${index} is out of range`)
    return this.withId(row.id)
  }

  private withId(questionId: number): StoredQuestion {
    const cached = this.cache.get(questionId)
    if (cached) return cached
    const row = this.q.setOf.get(questionId)
    if (!row) throw new QuestionLookupError('question_id', `No question with id ${questionId} in this workspace`)
    return this.load(row.set_id, row.pos)
  }

  /** Drops what was loaded when the questions or the corpus moved since (a workspace without revisions keeps nothing). */
  private refresh(): void {
    const questions = this.revisions('questions')
    const now = `${questions}/${this.revisions('corpus')}`
    if (questions === null || now !== this.cachedAt) this.cache.clear()
    this.cachedAt = now
  }

  private inSet(setId: number, index: number, what: string, field = 'split'): StoredQuestion {
    const n = this.q.setCount.get(setId)!.n
    if (n === 0) throw new QuestionLookupError(field, `${what} has no questions (or does not exist)`)
    if (index >= n) throw new QuestionLookupError('index', `${what} has ${n} questions; index ${index} is out of range`)
    // By its id, so that a group's rollouts of the question load it (and resolve its gold) once.
    const cached = this.cache.get(this.q.inSetAt.get(setId, index)!.id)
    return cached ?? this.load(setId, index)
  }

  private load(setId: number, pos: number): StoredQuestion {
    const q = loadQuestions(this.raw, { questionSetId: setId, offset: pos, limit: 1 })[0]!
    if (this.cache.size > 10_000) this.cache.clear()
    this.cache.set(q.rowId, q)
    return q
  }
}
