/** Question sets and their questions, in a stable order (by id). */
import type { Selectable } from 'kysely'
import type { QuestionSetTable, QuestionTable } from '../../db/schema'
import { statement, type WorkspaceHandle } from './statements'

type QuestionSet = Selectable<QuestionSetTable>

/** A question as stored (JSON columns unparsed). */
export type QuestionRecord = Pick<Selectable<QuestionTable>, 'id' | 'external_id' | 'question' | 'answers_json' | 'type' | 'supporting_facts_json' | 'supporting_docs_json'>

/** A question set with how many questions it holds. */
export interface QuestionSetSummary {
  id: QuestionSet['id']
  name: QuestionSet['name']
  source: QuestionSet['source']
  createdAt: QuestionSet['created_at']
  questions: number
}

export class QuestionRepository {
  private readonly s

  constructor(raw: WorkspaceHandle) {
    this.s = {
      sets: statement<[], QuestionSetSummary>(
        raw,
        'select s.id, s.name, s.source, s.created_at as createdAt, (select count(*) from questions q where q.set_id = s.id) as questions from question_sets s order by s.id',
      ),
      count: statement<[number], number>(raw, 'select count(*) from questions where set_id = ?', { pluck: true }),
      page: statement<[number, number, number], QuestionRecord>(
        raw,
        'select id, external_id, question, answers_json, type, supporting_facts_json, supporting_docs_json from questions where set_id = ? order by id limit ? offset ?',
      ),
      from: statement<[number, number], number>(raw, 'select count(*) from (select 1 from questions where set_id = ? limit -1 offset ?)', { pluck: true }),
    }
  }

  /** Every question set, by id, with its question count. */
  sets(): QuestionSetSummary[] {
    return this.s.sets().all()
  }

  /** Questions in the set. */
  count(setId: number): number {
    return Number(this.s.count().get(setId) ?? 0)
  }

  /** A page of the set's questions by id. */
  page(setId: number, offset: number, limit: number): QuestionRecord[] {
    return this.s.page().all(setId, limit, offset)
  }

  /** Questions of the set from `offset` on (0: the split would be empty). */
  countFrom(setId: number, offset: number): number {
    return Number(this.s.from().get(setId, offset))
  }
}
