/**
 * Which question an episode is about: by questions.id, or by split + index. A split is a question set
 * (its id, or its name) or a split label stored on the questions ('train', 'dev', ...); index counts
 * from 0 in id order, so a trainer's dataset row N is question N of its split.
 */
import type SQLite from 'better-sqlite3'
import { loadQuestions, type StoredQuestion } from '../experiments/questions'

export class QuestionLookupError extends Error {
  constructor(readonly field: string, message: string) {
    super(message)
    this.name = 'QuestionLookupError'
  }
}

export class QuestionLookup {
  private readonly setOf: SQLite.Statement<[number], { set_id: number; pos: number }>
  private readonly setByName: SQLite.Statement<[string], { id: number }>
  private readonly setCount: SQLite.Statement<[number], { n: number }>
  private readonly bySplitLabel: SQLite.Statement<[string, number], { id: number; set_id: number }>
  private readonly splitCount: SQLite.Statement<[string], { n: number }>
  /** Loaded questions (gold resolved once) by row id: episodes of a group ask for the same question. */
  private readonly cache = new Map<number, StoredQuestion>()

  constructor(private readonly raw: SQLite.Database) {
    this.setOf = raw.prepare('select set_id, (select count(*) from questions p where p.set_id = q.set_id and p.id < q.id) as pos from questions q where id = ?')
    this.setByName = raw.prepare('select id from question_sets where name = ?')
    this.setCount = raw.prepare('select count(*) as n from questions where set_id = ?')
    this.bySplitLabel = raw.prepare('select id, set_id from questions where split = ? order by id limit 1 offset ?')
    this.splitCount = raw.prepare('select count(*) as n from questions where split = ?')
  }

  byId(questionId: number): StoredQuestion {
    const cached = this.cache.get(questionId)
    if (cached) return cached
    const row = this.setOf.get(questionId)
    if (!row) throw new QuestionLookupError('question_id', `No question with id ${questionId} in this workspace`)
    return this.load(row.set_id, row.pos)
  }

  bySplit(split: number | string, index: number): StoredQuestion {
    if (typeof split === 'number') return this.inSet(split, index, `question set ${split}`)
    const named = this.setByName.get(split)
    if (named) return this.inSet(named.id, index, `question set "${split}"`)
    const n = this.splitCount.get(split)!.n
    if (n === 0) throw new QuestionLookupError('split', `No question set and no split named "${split}" in this workspace`)
    const row = this.bySplitLabel.get(split, index)
    if (!row) throw new QuestionLookupError('index', `Split "${split}" has ${n} questions; index ${index} is out of range`)
    return this.byId(row.id)
  }

  private inSet(setId: number, index: number, what: string): StoredQuestion {
    const n = this.setCount.get(setId)!.n
    if (n === 0) throw new QuestionLookupError('split', `${what} has no questions (or does not exist)`)
    if (index >= n) throw new QuestionLookupError('index', `${what} has ${n} questions; index ${index} is out of range`)
    return this.load(setId, index)
  }

  private load(setId: number, pos: number): StoredQuestion {
    const q = loadQuestions(this.raw, { questionSetId: setId, offset: pos, limit: 1 })[0]!
    if (this.cache.size > 10_000) this.cache.clear()
    this.cache.set(q.rowId, q)
    return q
  }
}
