/**
 * Exports read back: a real workspace (the demo world), real evaluation runs and a tiny real training
 * run, each exported by a real `data.export` job; the files are parsed back and compared with what the
 * API serves for the same run or question set.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { parquetReadObjects } from 'hyparquet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ExportParams, RouteInput } from '../../preload/contract'
import { exportDownloads } from '../../main/adapters/downloads'
import { createHandlers } from '../../main/api/handlers'
import { csvRecord, writeExport } from '../../main/exports'
import { runTraining } from '../../main/experiments/training'
import { LexicalAnswerer } from '../../main/policy/answerer/lexical-answerer'
import { startBackend, type TestBackend } from '../helpers/services'

/** RFC 4180 reader (quoted fields with doubled quotes, CRLF records), written here to check the writer. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let i = 0
  let quoted = false
  while (i < text.length) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), (i += 2)
      else if (c === '"') (quoted = false), i++
      else (field += c), i++
    } else if (c === '"' && field === '') (quoted = true), i++
    else if (c === ',') row.push(field), (field = ''), i++
    else if (c === '\r' && text[i + 1] === '\n') row.push(field), rows.push(row), (row = []), (field = ''), (i += 2)
    else if (c === '\n' || c === '\r') throw new Error(`bare line break at ${i}: not RFC 4180`)
    else (field += c), i++
  }
  if (field !== '' || row.length) throw new Error('the last record has no CRLF')
  return rows
}

const jsonLines = (file: string): unknown[] => readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown)

// Each test runs real export jobs in worker threads: on a shared 2-core machine they take tens of seconds.
describe('exports', { timeout: 600_000 }, () => {
  let backend: TestBackend
  let workspaceId: string
  let setId: number
  let menuRun: number
  let toolsRun: number
  let trainRun: number

  const exportJob = async (params: ExportParams) => {
    const job = await backend.call('job.start', { kind: 'data.export', workspaceId, params } as RouteInput<'job.start'>)
    const done = await backend.services.jobs.waitFor(job.id)
    expect(done.status, done.error ?? '').toBe('done')
    if (done.kind !== 'data.export' || !done.result) throw new Error('no result')
    return { job: done, file: done.result.file, result: done.result }
  }
  const allEpisodes = async (runId: number) => (await backend.call('runs.episodes', { workspaceId, runId, limit: 1000 })).episodes

  beforeAll(async () => {
    backend = await startBackend()
    workspaceId = (await backend.call('workspace.create', { name: 'exports' })).id
    const ingest = await backend.call('job.start', { kind: 'corpus.ingest', workspaceId, params: { source: { kind: 'demo', seed: 2, size: 0.5 } } })
    expect((await backend.services.jobs.waitFor(ingest.id)).status).toBe('done')
    setId = (await backend.call('questions.sets', { workspaceId }))[0]!.id
    const evaluate = async (environment: string, policy: string, limit: number) => {
      const job = await backend.call('job.start', { kind: 'eval.run', workspaceId, params: { environment, policy: { kind: 'scripted', name: policy }, questionSetId: setId, limit } })
      const done = await backend.services.jobs.waitFor(job.id)
      expect(done.status, done.error ?? '').toBe('done')
      return done.kind === 'eval.run' ? done.result!.runId : -1
    }
    menuRun = await evaluate('graph-menu', 'greedy', 5)
    toolsRun = await evaluate('stateful', 'scripted-tools', 3)
    const { raw } = await backend.services.workspaces.handle(workspaceId)
    trainRun = (
      await runTraining(
        raw,
        { environment: 'graph-menu', steps: 1, groupSize: 2, questionsPerStep: 2, evalInterval: 5, seed: 3, train: { questionSetId: setId, offset: 0, limit: 6 }, heldOut: { questionSetId: setId, offset: 6, limit: 2 } },
        { answerer: new LexicalAnswerer(), appVersion: 'test', jobId: null, progress: () => {}, throwIfCancelled: () => {} },
      )
    ).runId
  }, 600_000)
  afterAll(() => backend.close())

  it('quotes CSV fields as RFC 4180 says, and they read back exactly', () => {
    const values = ['plain', 'a,b', 'say "hi"', 'two\nlines', 'crlf\r\nin', ' padded ', '', 'ünï ☃', '"', '=1+2']
    const text = csvRecord(values) + csvRecord([1.5, null, true, -0, 1e21])
    expect(parseCsv(text)).toEqual([values, ['1.5', '', 'true', '0', '1e+21']])
    expect(csvRecord(['a,b', 'say "hi"'])).toBe('"a,b","say ""hi"""\r\n')
  })

  it('writes a run as CSV whose rows parse back to the per-question results the API serves', async () => {
    const { file, result } = await exportJob({ source: 'run', runId: menuRun, format: 'run-results-csv' })
    expect(file.endsWith('.csv')).toBe(true)
    const [header, ...rows] = parseCsv(readFileSync(file, 'utf8'))
    const episodes = await allEpisodes(menuRun)
    expect(result.rows).toBe(episodes.length)
    expect(rows.length).toBe(episodes.length)
    const metricNames = Object.keys(episodes[0]!.metrics).sort()
    expect(header).toEqual(['episode_id', 'run_id', 'question_id', 'train_step', 'seed', 'question', 'answer', 'gold', 'turns', 'format_errors', 'ms', 'end_reason', ...metricNames])
    const byId = new Map(episodes.map((e) => [String(e.id), e]))
    for (const row of rows) {
      const cell = (name: string) => row[header!.indexOf(name)]!
      const e = byId.get(cell('episode_id'))!
      expect(cell('question')).toBe(e.question)
      expect(cell('answer')).toBe(e.answer ?? '')
      expect(cell('gold')).toBe(e.gold.join(' | '))
      expect(Number(cell('turns'))).toBe(e.turns)
      expect(cell('end_reason')).toBe(e.endReason)
      for (const m of metricNames) expect(cell(m) === '' ? null : Number(cell(m))).toBe(e.metrics[m] ?? null)
    }
  })

  it('writes results as JSONL equal to the API rows', async () => {
    const { file } = await exportJob({ source: 'run', runId: menuRun, format: 'run-results-jsonl' })
    const lines = jsonLines(file) as { episodeId: number; question: string; gold: string[]; metrics: Record<string, number | null>; endReason: string }[]
    const episodes = await allEpisodes(menuRun)
    expect(lines.map((l) => l.episodeId).sort()).toEqual(episodes.map((e) => e.id).sort())
    for (const l of lines) {
      const e = episodes.find((x) => x.id === l.episodeId)!
      expect({ question: l.question, gold: l.gold, metrics: l.metrics, endReason: l.endReason }).toEqual({ question: e.question, gold: e.gold, metrics: e.metrics, endReason: e.endReason })
    }
  })

  it('writes episodes with their steps: actions of evaluations, and credit and advantages of training rollouts', async () => {
    const evalLines = jsonLines((await exportJob({ source: 'run', runId: menuRun, format: 'run-episodes-jsonl' })).file) as { episodeId: number; turns: number; steps: { action: { kind: string }; valid: boolean; credit: unknown }[] }[]
    for (const l of evalLines) {
      const e = await backend.call('runs.episode', { workspaceId, episodeId: l.episodeId })
      expect(l.steps.map((s) => s.action)).toEqual(e.steps.map((s) => s.action))
      expect(l.steps.every((s) => typeof s.valid === 'boolean' && s.credit === null)).toBe(true)
    }
    const trainLines = jsonLines((await exportJob({ source: 'run', runId: trainRun, format: 'run-episodes-jsonl' })).file) as {
      episodeId: number; runKind: string; reward: number; rewardComponents: Record<string, number>; steps: { action: unknown; credit: { total: number }; advantage: number }[]
    }[]
    expect(trainLines.length).toBe(4)
    for (const l of trainLines) {
      expect(l.runKind).toBe('train')
      expect(l.reward).toEqual(expect.any(Number))
      expect(Object.keys(l.rewardComponents).length).toBeGreaterThan(0)
      const e = await backend.call('runs.episode', { workspaceId, episodeId: l.episodeId })
      expect(l.steps.map((s) => s.action)).toEqual(e.steps.map((s) => s.action))
      expect(l.steps.map((s) => [s.credit.total, s.advantage])).toEqual(e.steps.map((s) => [s.credit!.total, s.credit!.advantage]))
    }
  })

  it('writes SFT examples in the chat-messages format: the rendered prompt and the chosen action per valid step', async () => {
    for (const runId of [menuRun, toolsRun, trainRun]) {
      const lines = jsonLines((await exportJob({ source: 'run', runId, format: 'run-sft-jsonl' })).file) as { messages: { role: string; content: string }[]; metadata: { episodeId: number; t: number } }[]
      let validSteps = 0
      for (const e of await allEpisodes(runId)) validSteps += (await backend.call('runs.episode', { workspaceId, episodeId: e.id })).steps.filter((s) => s.info.valid).length
      expect(lines.length).toBe(validSteps)
      const first = lines[0]!
      expect(first.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant'])
      const step = (await backend.call('runs.episode', { workspaceId, episodeId: first.metadata.episodeId })).steps.find((s) => s.t === first.metadata.t)!
      expect(first.messages[1]!.content).toContain(step.observationText.slice(0, 200))
      const action = step.action
      expect(first.messages[2]!.content).toBe(action.kind === 'menu' ? action.id : action.kind === 'tool' ? JSON.stringify({ name: action.name, arguments: action.arguments }) : action.text)
    }
  })

  it('writes a question set as FlashRAG JSONL per split, verl JSONL and verl / Search-R1 Parquet with every required field', async () => {
    const { total, questions } = await backend.call('questions.list', { workspaceId, setId, limit: 500 })
    const set = (await backend.call('questions.sets', { workspaceId })).find((s) => s.id === setId)!
    // Splits are another feature's: where the workspace stores them, the first question goes into `test` and the export says so.
    const { raw } = await backend.services.workspaces.handle(workspaceId)
    const hasSplits = (raw.prepare("select name from pragma_table_info('questions')").pluck().all() as string[]).includes('split')
    // The demo arrives split; this test starts from no split and puts one question in `test`.
    if (hasSplits) raw.prepare('update questions set split = null where set_id = ?').run(setId)
    if (hasSplits) raw.prepare("update questions set split = 'test' where id = ?").run(questions[0]!.id)
    const splitOf = (i: number) => (hasSplits && i === 0 ? 'test' : null)
    // The server's key: the set by name; a labelled question counts within the set's questions of its label, the others by position in the set.
    const keyOf = (i: number) => (splitOf(i) === 'test' ? { set: set.name, split: 'test', index: 0 } : { set: set.name, split: null, index: i })
    const folder = (await exportJob({ source: 'questions', questionSetId: setId, format: 'questions-flashrag-jsonl' })).file
    expect(readdirSync(folder).sort()).toEqual(hasSplits ? ['all.jsonl', 'test.jsonl'] : ['test.jsonl'])
    const flash = readdirSync(folder).sort().reverse().flatMap((f) => jsonLines(join(folder, f))) as { id: string; question: string; golden_answers: string[]; metadata: Record<string, unknown> }[]
    expect(flash.length).toBe(total)
    expect(flash.map((r) => [r.id, r.question, r.golden_answers])).toEqual(questions.map((q) => [q.externalId, q.question, q.answers]))
    flash.forEach((r, i) => expect(r.metadata).toMatchObject({ question_id: questions[i]!.id, ...keyOf(i), data_source: expect.stringMatching(/^harness-lab\//) }))

    const verl = jsonLines((await exportJob({ source: 'questions', questionSetId: setId, format: 'questions-verl-jsonl' })).file) as Record<string, any>[]
    expect(verl.length).toBe(total)
    verl.forEach((r, i) => {
      expect(Object.keys(r).sort()).toEqual(['ability', 'data_source', 'extra_info', 'prompt', 'reward_model'])
      expect(r.data_source).toMatch(/^harness-lab\//)
      expect(r.prompt).toEqual([{ role: 'user', content: expect.stringContaining(questions[i]!.question) }])
      expect(r.ability).toEqual(expect.any(String))
      expect(r.reward_model).toEqual({ style: 'rule', ground_truth: { target: questions[i]!.answers } })
      expect(r.extra_info).toEqual({ question_id: questions[i]!.id, ...keyOf(i), external_id: questions[i]!.externalId })
    })

    const readParquet = async (file: string) => {
      const bytes = readFileSync(file)
      expect(bytes.subarray(0, 4).toString()).toBe('PAR1')
      const back = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) })
      return JSON.parse(JSON.stringify(back, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))) as Record<string, any>[]
    }
    expect(await readParquet((await exportJob({ source: 'questions', questionSetId: setId, format: 'questions-verl-parquet' })).file)).toEqual(verl)
    const searchR1 = await readParquet((await exportJob({ source: 'questions', questionSetId: setId, format: 'questions-searchr1-parquet' })).file)
    expect(searchR1.map((r) => r.extra_info)).toEqual(verl.map((r) => r.extra_info))
    for (const r of searchR1) expect(r.prompt[0].content).toContain('<answer>')
  })

  it('offers the finished export as a download with its content type', async () => {
    const { job, file } = await exportJob({ source: 'run', runId: menuRun, format: 'run-results-csv' })
    const downloads = exportDownloads(createHandlers(backend.services, { mode: 'browser' }), backend.services.events)
    expect(await downloads.find(job.id)).toEqual({ file, name: file.split('/').pop(), contentType: 'text/csv; charset=utf-8' })
  })

  it('refuses an unknown run, a path outside the data folder, and leaves no file when an export stops midway', async () => {
    await expect(backend.call('job.start', { kind: 'data.export', workspaceId, params: { source: 'run', runId: 1, format: 'questions-verl-jsonl' } } as never)).rejects.toMatchObject({ body: { code: 'VALIDATION' } })
    await expect(backend.call('job.start', { kind: 'data.export', workspaceId, params: { source: 'run', runId: menuRun, format: 'run-results-csv', path: '/tmp/outside.csv' } })).rejects.toMatchObject({ body: { code: 'VALIDATION' } })
    // A named path inside the data folder is written exactly there.
    const named = join(backend.dataDir, 'named-results.jsonl')
    expect((await exportJob({ source: 'run', runId: menuRun, format: 'run-results-jsonl', path: named })).file).toBe(named)
    expect(jsonLines(named).length).toBe((await allEpisodes(menuRun)).length)
    const job = await backend.call('job.start', { kind: 'data.export', workspaceId, params: { source: 'run', runId: 99_999, format: 'run-results-csv' } })
    const failed = await backend.services.jobs.waitFor(job.id)
    expect(failed.status).toBe('failed')
    expect(failed.error).toContain('No run with id 99999')

    const { raw } = await backend.services.workspaces.handle(workspaceId)
    const folder = join(dirname(await backend.services.workspaces.databaseFile(workspaceId)), 'exports')
    const target = join(folder, 'stopped.jsonl')
    let calls = 0
    await expect(writeExport(raw, { source: 'run', runId: trainRun, format: 'run-sft-jsonl' }, target, { checkpoint: () => { if (++calls > 1) throw new Error('cancelled') } })).rejects.toThrow('cancelled')
    expect(existsSync(target)).toBe(false)
    expect(readdirSync(folder).filter((f) => f.endsWith('.partial'))).toEqual([])
  })
})
