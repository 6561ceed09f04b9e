/** The statements behind the environment server's question keys (prepared once per server: every episode start reads them). */
import type SQLite from 'better-sqlite3'

export class QuestionKeyQueries {
  readonly setOf: SQLite.Statement<[number], { set_id: number; pos: number }>
  readonly setByName: SQLite.Statement<[string], { id: number }>
  readonly setCount: SQLite.Statement<[number], { n: number }>
  readonly inSetAt: SQLite.Statement<[number, number], { id: number }>
  readonly bySplitLabel: SQLite.Statement<[string, number], { id: number; set_id: number }>
  readonly splitCount: SQLite.Statement<[string], { n: number }>
  readonly setById: SQLite.Statement<[number], { id: number; name: string }>
  readonly setNamed: SQLite.Statement<[string], { id: number; name: string }>
  readonly inSetSplit: SQLite.Statement<[number, string, number], { id: number }>
  readonly setSplitCount: SQLite.Statement<[number, string], { n: number }>
  readonly setSplits: SQLite.Statement<[number], { split: string }>
  readonly firstSet: SQLite.Statement<[], { id: number; n: number }>

  constructor(raw: SQLite.Database) {
    this.setOf = raw.prepare('select set_id, (select count(*) from questions p where p.set_id = q.set_id and p.id < q.id) as pos from questions q where id = ?')
    this.setByName = raw.prepare('select id from question_sets where name = ?')
    this.setCount = raw.prepare('select count(*) as n from questions where set_id = ?')
    this.inSetAt = raw.prepare('select id from questions where set_id = ? order by id limit 1 offset ?')
    this.bySplitLabel = raw.prepare('select id, set_id from questions where split = ? order by id limit 1 offset ?')
    this.splitCount = raw.prepare('select count(*) as n from questions where split = ?')
    this.setById = raw.prepare('select id, name from question_sets where id = ?')
    this.setNamed = raw.prepare('select id, name from question_sets where name = ?')
    this.inSetSplit = raw.prepare('select id from questions where set_id = ? and split = ? order by id limit 1 offset ?')
    this.setSplitCount = raw.prepare('select count(*) as n from questions where set_id = ? and split = ?')
    this.setSplits = raw.prepare('select distinct split from questions where set_id = ? and split is not null order by split')
    this.firstSet = raw.prepare('select s.id, (select count(*) from questions q where q.set_id = s.id) as n from question_sets s where exists (select 1 from questions q where q.set_id = s.id) order by s.id limit 1')
  }
}
