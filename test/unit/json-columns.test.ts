/**
 * Typed JSON columns (main/db/json-column.ts): reading a JSON column parses it with the column's schema,
 * so bad stored JSON fails where it is read with an error naming the column, on a real workspace
 * database whose rows were damaged by hand. Good rows read back as they were written.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { questionsOf } from '../../main/corpus/catalogue'
import { JsonColumnError, jsonColumn, StringList } from '../../main/db/json-column'
import { workspaceMigrations } from '../../main/db/migrations'
import { openDatabase, type OpenedDatabase } from '../../main/db/open'
import type { WorkspaceDatabase } from '../../main/db/schema'
import { listEpisodes, listRuns } from '../../main/experiments/runs/read-model'

const dir = mkdtempSync(join(tmpdir(), 'harness-lab-json-columns-'))
let ws: OpenedDatabase<WorkspaceDatabase>

beforeAll(async () => {
  ws = await openDatabase<WorkspaceDatabase>(join(dir, 'workspace.db'), workspaceMigrations)
  const raw = ws.raw
  const set = raw.prepare("insert into question_sets (name, source, created_at) values ('s', 'test', '2026-01-01') returning id").get() as { id: number }
  const question = raw.prepare(
    'insert into questions (set_id, external_id, question, answers_json, type, supporting_facts_json, supporting_docs_json) values (?, ?, ?, ?, ?, ?, ?)',
  )
  question.run(set.id, 'good', 'Who?', '["Ada"]', null, '[{"title":"T","sentence":0}]', '["T"]')
  const run = (config: string, summary: string | null) =>
    (raw.prepare("insert into runs (kind, name, status, config_json, seed, app_version, corpus_signature, summary_json, created_at) values ('eval', 'r', 'done', ?, 0, 'test', 'sig', ?, '2026-01-01') returning id").get(config, summary) as { id: number }).id
  const episode = raw.prepare('insert into episodes (run_id, question, seed, gold_json, outcome_json, metrics_json, turns, format_errors, ms) values (?, ?, 0, ?, ?, ?, 1, 0, 1)')
  const outcome = '{"evidence":{},"seen":{},"turns":1,"formatErrors":0,"endReason":"answer","toolsUsed":[]}'
  const good = run('{}', '{"aggregates":{"answer.em":{"mean":0.5,"count":2,"ci":null}}}')
  episode.run(good, 'Who?', '{"answers":["Ada"],"supportingFacts":[],"supportingDocs":[]}', outcome, '{"answer.em":1,"sp.f1":null}')
  const badMetrics = run('{}', null)
  episode.run(badMetrics, 'Who?', '{"answers":["Ada"]}', outcome, '{"answer.em":"yes"}')
})

afterAll(async () => {
  await ws.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('typed JSON columns', () => {
  it('a codec reads what it wrote and names its column when the text is not JSON or has another shape', () => {
    const answers = jsonColumn('questions.answers_json', StringList)
    expect(answers.read(answers.write(['a', 'b']))).toEqual(['a', 'b'])
    expect(answers.readNullable(null)).toBeNull()
    expect(() => answers.read('["a",')).toThrow(JsonColumnError)
    expect(() => answers.read('["a",')).toThrow(/^Stored JSON in questions\.answers_json is not valid: .*\(text: "\[\\"a\\",/)
    expect(() => answers.read('["a", 2]')).toThrow(/questions\.answers_json is not valid: .* at 1$/)
  })

  it('good rows of a real workspace read back as written', () => {
    expect(questionsOf(ws.raw, 1, 0, 10).questions[0]).toMatchObject({ answers: ['Ada'], supportingFacts: [{ title: 'T', sentence: 0 }], supportingDocs: ['T'] })
    const runs = listRuns(ws.raw)
    expect(runs.find((r) => r.id === 1)?.metrics).toEqual({ 'answer.em': { mean: 0.5, count: 2, lower: null, upper: null } })
    expect(listEpisodes(ws.raw, 1, 0, 10).episodes[0]).toMatchObject({ gold: ['Ada'], endReason: 'answer', metrics: { 'answer.em': 1, 'sp.f1': null } })
  })

  it('a damaged question row is an error naming its column, not a crash further on', () => {
    ws.raw.prepare("update questions set answers_json = '{\"oops\"' where external_id = 'good'").run()
    expect(() => questionsOf(ws.raw, 1, 0, 10)).toThrow(/Stored JSON in questions\.answers_json is not valid/)
    ws.raw.prepare("update questions set answers_json = '[\"Ada\"]', supporting_facts_json = '[{\"title\":\"T\"}]' where external_id = 'good'").run()
    expect(() => questionsOf(ws.raw, 1, 0, 10)).toThrow(/Stored JSON in questions\.supporting_facts_json is not valid: .* at 0\.sentence/)
  })

  it('stored metrics of the wrong shape, and a damaged run summary, name their columns', () => {
    expect(() => listEpisodes(ws.raw, 2, 0, 10)).toThrow(/Stored JSON in episodes\.metrics_json is not valid: .* at answer\.em/)
    ws.raw.prepare("update runs set summary_json = '{\"aggregates\": [' where id = 1").run()
    expect(() => listRuns(ws.raw)).toThrow(/Stored JSON in runs\.summary_json is not valid/)
  })
})
