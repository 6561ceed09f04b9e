/** Question sets and their questions, in a stable order (by id), with their splits. */
import type { Selectable } from 'kysely'
import type { QuestionSetTable, QuestionTable } from '../../db/schema'
import { statement, type WorkspaceHandle } from './statements'

type QuestionSet = Selectable<QuestionSetTable>

/** A question as stored (JSON columns unparsed). */
export type QuestionRecord = Pick<
  Selectable<QuestionTable>,
  'id' | 'external_id' | 'question' | 'answers_json' | 'type' | 'supporting_facts_json' | 'supporting_docs_json' | 'split' | 'meta_json'
>

/** A question set with how many questions it holds. */
export interface QuestionSetSummary {
  id: QuestionSet['id']
  name: QuestionSet['name']
  source: QuestionSet['source']
  createdAt: QuestionSet['created_at']
  questions: number
}

/** A set with its split spec and report (JSON unparsed). */
export type QuestionSetRecord = QuestionSetSummary & { splitJson: QuestionSet['split_json']; reportJson: QuestionSet['report_json'] }

/** A question to insert (JSON columns already serialised). */
export interface NewQuestion {
  externalId: string
  question: string
  answersJson: string
  type: string | null
  supportingFactsJson: string
  supportingDocsJson: string
  split: string | null
  metaJson: string | null
}

const COLUMNS = 'id, external_id, question, answers_json, type, supporting_facts_json, supporting_docs_json, split, meta_json'
const SET = 's.id, s.name, s.source, s.created_at as createdAt, (select count(*) from questions q where q.set_id = s.id) as questions'

export class QuestionRepository {
  private readonly s

  constructor(private readonly raw: WorkspaceHandle) {
    this.s = {
      sets: statement<[], QuestionSetSummary>(raw, `select ${SET} from question_sets s order by s.id`),
      set: statement<[number], QuestionSetRecord>(raw, `select ${SET}, s.split_json as splitJson, s.report_json as reportJson from question_sets s where s.id = ?`),
      setByName: statement<[string], number>(raw, 'select id from question_sets where name = ?', { pluck: true }),
      createSet: statement<[string, string, string, string | null], { id: number }>(raw, 'insert into question_sets (name, source, created_at, report_json) values (?, ?, ?, ?) returning id'),
      count: statement<[number], number>(raw, 'select count(*) from questions where set_id = ?', { pluck: true }),
      page: statement<[number, number, number], QuestionRecord>(raw, `select ${COLUMNS} from questions where set_id = ? order by id limit ? offset ?`),
      all: statement<[number], QuestionRecord>(raw, `select ${COLUMNS} from questions where set_id = ? order by id`),
      one: statement<[number, number], QuestionRecord>(raw, `select ${COLUMNS} from questions where set_id = ? and id = ?`),
      setOf: statement<[number], number>(raw, 'select set_id from questions where id = ?', { pluck: true }),
      splitPage: statement<[number, string, number, number], QuestionRecord>(raw, `select ${COLUMNS} from questions where set_id = ? and split = ? order by id limit ? offset ?`),
      from: statement<[number, number], number>(raw, 'select count(*) from (select 1 from questions where set_id = ? limit -1 offset ?)', { pluck: true }),
      splitFrom: statement<[number, string, number], number>(raw, 'select count(*) from (select 1 from questions where set_id = ? and split = ? limit -1 offset ?)', { pluck: true }),
      splitCounts: statement<[number], { name: string; count: number }>(raw, 'select split as name, count(*) as count from questions where set_id = ? and split is not null group by split order by split'),
      unassigned: statement<[number], number>(raw, 'select count(*) from questions where set_id = ? and split is null', { pluck: true }),
      insert: statement<[number, string, string, string, string | null, string, string, string | null, string | null], { id: number }>(
        raw,
        `insert into questions (set_id, external_id, question, answers_json, type, supporting_facts_json, supporting_docs_json, split, meta_json)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?) returning id`,
      ),
      update: statement<[string, string, string | null, string, string, string | null, number, number], unknown>(
        raw,
        'update questions set question = ?, answers_json = ?, type = ?, supporting_facts_json = ?, supporting_docs_json = ?, meta_json = ? where set_id = ? and id = ?',
      ),
      remove: statement<[number, number], unknown>(raw, 'delete from questions where set_id = ? and id = ?'),
      assign: statement<[string | null, number], unknown>(raw, 'update questions set split = ? where id = ?'),
      setSpec: statement<[string | null, number], unknown>(raw, 'update question_sets set split_json = ? where id = ?'),
      rewriteCounts: statement<[number], { model: string; status: string; reason: string | null; n: number }>(
        raw,
        `select json_extract(meta_json, '$.rewrite.model') as model, json_extract(meta_json, '$.rewrite.status') as status, json_extract(meta_json, '$.rewrite.reason') as reason, count(*) as n
         from questions where set_id = ? and json_extract(meta_json, '$.rewrite.model') is not null group by 1, 2, 3 order by 1, 2, 3`,
      ),
      maxExternal: statement<[number], number>(raw, "select count(*) from questions where set_id = ? and external_id like 'q%'", { pluck: true }),
    }
  }

  /** Every question set, by id, with its question count. */
  sets(): QuestionSetSummary[] {
    return this.s.sets().all()
  }

  /** One set with its split spec and report, or undefined. */
  set(setId: number): QuestionSetRecord | undefined {
    return this.s.set().get(setId)
  }

  setIdByName(name: string): number | undefined {
    return this.s.setByName().get(name)
  }

  /** Inserts a set; its name must be new (the caller reports a clash). */
  createSet(name: string, source: string, reportJson: string | null = null): number {
    return this.s.createSet().get(name, source, new Date().toISOString(), reportJson)!.id
  }

  /** Questions in the set. */
  count(setId: number): number {
    return Number(this.s.count().get(setId) ?? 0)
  }

  /** A page of the set's questions by id. */
  page(setId: number, offset: number, limit: number): QuestionRecord[] {
    return this.s.page().all(setId, limit, offset)
  }

  /** A page of one split's questions by id (split null: the whole set). */
  splitPage(setId: number, split: string | null, offset: number, limit: number): QuestionRecord[] {
    return split === null ? this.page(setId, offset, limit) : this.s.splitPage().all(setId, split, limit, offset)
  }

  /** Every question of the set by id. */
  all(setId: number): QuestionRecord[] {
    return this.s.all().all(setId)
  }

  one(setId: number, questionId: number): QuestionRecord | undefined {
    return this.s.one().get(setId, questionId)
  }

  /** The set a question belongs to. */
  setOf(questionId: number): number | undefined {
    return this.s.setOf().get(questionId)
  }

  /** Questions of the set (or of one of its splits) from `offset` on (0: the split would be empty). */
  countFrom(setId: number, offset: number, split: string | null = null): number {
    return Number(split === null ? this.s.from().get(setId, offset) : this.s.splitFrom().get(setId, split, offset))
  }

  /** How the GGUF rewrite went for the set's questions, by model, status and rejection reason (from their provenance). */
  rewriteCounts(setId: number): Array<{ model: string; status: string; reason: string | null; n: number }> {
    return this.s.rewriteCounts().all(setId)
  }

  /** Sizes of the set's splits, by name. */
  splitCounts(setId: number): { name: string; count: number }[] {
    return this.s.splitCounts().all(setId)
  }

  unassigned(setId: number): number {
    return Number(this.s.unassigned().get(setId))
  }

  insert(setId: number, q: NewQuestion): number {
    return this.s.insert().get(setId, q.externalId, q.question, q.answersJson, q.type, q.supportingFactsJson, q.supportingDocsJson, q.split, q.metaJson)!.id
  }

  /** A fresh external id for a hand-written question of the set ("q1", "q2", ...). */
  nextExternalId(setId: number): string {
    let n = Number(this.s.maxExternal().get(setId)) + 1
    while (this.raw.prepare('select 1 from questions where set_id = ? and external_id = ?').get(setId, `q${n}`)) n++
    return `q${n}`
  }

  update(setId: number, questionId: number, q: Pick<NewQuestion, 'question' | 'answersJson' | 'type' | 'supportingFactsJson' | 'supportingDocsJson' | 'metaJson'>): void {
    this.s.update().run(q.question, q.answersJson, q.type, q.supportingFactsJson, q.supportingDocsJson, q.metaJson, setId, questionId)
  }

  remove(setId: number, questionId: number): boolean {
    return (this.s.remove().run(setId, questionId) as { changes: number }).changes > 0
  }

  /** Stores a split spec and every question's split in one transaction. */
  storeSplits(setId: number, specJson: string | null, assignment: ReadonlyMap<number, string | null>): void {
    this.raw.transaction(() => {
      this.s.setSpec().run(specJson, setId)
      for (const [id, split] of assignment) this.s.assign().run(split, id)
    }).immediate()
  }
}
