/**
 * The environment server's question selector (main/env-server/questions.ts) on a real workspace file:
 * set (id or name) + optional split label + index counts within the set, or within the set's questions
 * of that label; the older split + index without a set still counts a label over the whole workspace.
 * Two sets share the label 'train' so the two countings differ.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { QuestionLookup, QuestionLookupError } from '../../main/env-server/questions'
import { openDemoWorkspace, type DemoWorkspace } from '../helpers/corpus'

let demo: DemoWorkspace
let lookup: QuestionLookup
let first: number[]
let second: number[]

beforeAll(async () => {
  demo = await openDemoWorkspace(5, 0.3)
  const raw = demo.db.raw
  first = raw.prepare('select id from questions where set_id = 1 order by id').pluck().all() as number[]
  // A second set, a copy of the first, every question in 'train'; the first alternates train / dev.
  raw.prepare("insert into question_sets (id, name, source, created_at) values (2, 'copy', 'test', '2026-01-01')").run()
  raw
    .prepare("insert into questions (set_id, external_id, question, answers_json, type, supporting_facts_json, supporting_docs_json, split) select 2, external_id, question, answers_json, type, supporting_facts_json, supporting_docs_json, 'train' from questions where set_id = 1 order by id")
    .run()
  second = raw.prepare('select id from questions where set_id = 2 order by id').pluck().all() as number[]
  const label = raw.prepare('update questions set split = ? where id = ?')
  first.forEach((id, i) => label.run(i % 2 === 0 ? 'train' : 'dev', id))
  lookup = new QuestionLookup(raw)
}, 600_000)
afterAll(async () => {
  await demo?.close()
})

const refusal = (f: () => unknown): { field: string; message: string } => {
  try {
    f()
  } catch (err) {
    if (err instanceof QuestionLookupError) return { field: err.field, message: err.message }
    throw err
  }
  throw new Error('expected a refusal')
}

describe('question selector: set + split + index', () => {
  it('counts within the set, or within the set and its split label, by id or by name', () => {
    const train = first.filter((_, i) => i % 2 === 0)
    const dev = first.filter((_, i) => i % 2 === 1)
    expect(first.map((_, i) => lookup.bySet(1, undefined, i).rowId)).toEqual(first)
    expect(train.map((_, i) => lookup.bySet(1, 'train', i).rowId)).toEqual(train)
    expect(dev.map((_, i) => lookup.bySet(1, 'dev', i).rowId)).toEqual(dev)
    expect(second.map((_, i) => lookup.bySet('copy', 'train', i).rowId)).toEqual(second)
    expect(lookup.bySet(2, undefined, 1).rowId).toBe(second[1])
  })

  it('keeps the older split + index (a label over the whole workspace, or a set id or name)', () => {
    const train = first.filter((_, i) => i % 2 === 0)
    // Past the first set's train questions the count runs on into the copy's.
    expect(lookup.bySplit('train', train.length).rowId).toBe(second[0])
    expect(lookup.bySplit(2, 0).rowId).toBe(second[0])
    expect(lookup.bySplit('copy', 1).rowId).toBe(second[1])
  })

  it('refuses with the field at fault', () => {
    expect(refusal(() => lookup.bySet(9, undefined, 0))).toMatchObject({ field: 'set', message: expect.stringMatching(/No question set with id 9/) })
    expect(refusal(() => lookup.bySet('nope', undefined, 0))).toMatchObject({ field: 'set', message: expect.stringMatching(/named "nope"/) })
    expect(refusal(() => lookup.bySet('copy', 'dev', 0))).toMatchObject({ field: 'split', message: expect.stringMatching(/its splits: train/) })
    expect(refusal(() => lookup.bySet(1, 'dev', first.length))).toMatchObject({ field: 'index', message: expect.stringMatching(/out of range/) })
    expect(refusal(() => lookup.bySet(2, undefined, second.length))).toMatchObject({ field: 'index' })
  })

  it('loads a question once for a group, and serves an edit or a removal from the next episode on', () => {
    const raw = demo.db.raw
    const id = second[3]!
    const loaded = lookup.bySet(2, undefined, 3)
    expect(lookup.bySet('copy', undefined, 3)).toBe(loaded)
    expect(lookup.byId(id)).toBe(loaded)
    // Edited in the app while the server runs (another connection would do the same through the revision).
    raw.prepare('update questions set question = ? where id = ?').run('Edited: which harbour?', id)
    expect(lookup.byId(id).question).toBe('Edited: which harbour?')
    expect(lookup.bySet(2, undefined, 3).question).toBe('Edited: which harbour?')
    raw.prepare('delete from questions where id = ?').run(id)
    expect(refusal(() => lookup.byId(id))).toMatchObject({ field: 'question_id' })
    expect(lookup.bySet(2, undefined, 3).rowId).toBe(second[4])
  })
})
