/**
 * `questions import|generate|split|list` run as their own process (`tsx main/cli.ts`, as `npm run cli`
 * does) over a real data folder holding a folder corpus.
 */
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { QuestionSetDetail } from '../../preload/contract'
import { tempDir } from '../helpers/services'

const run = promisify(execFile)
const root = join(import.meta.dirname, '..', '..')
const tsx = join(root, 'node_modules', '.bin', 'tsx')
const FIXTURES = join(root, 'test', 'fixtures', 'questions')

describe('questions command line', () => {
  const tmp = tempDir('harness-lab-qcli-')
  let workspaceId: string
  const cli = async (...args: string[]) => {
    const r = await run(tsx, [join(root, 'main', 'cli.ts'), '--data-dir', tmp.dir, ...args], { cwd: root, maxBuffer: 64 << 20, env: { ...process.env, HARNESS_LAB_DATA_DIR: '' } })
    return r.stdout
  }

  beforeAll(async () => {
    workspaceId = (JSON.parse(await cli('--json', 'workspace', 'create', 'qcli')) as { id: string }).id
    await cli('corpus', 'ingest', workspaceId, '--folder', join(FIXTURES, 'corpus'))
  }, 600_000)
  afterAll(() => tmp.cleanup())

  it('import reports bad rows and unresolved gold by line; split and list show the splits', async () => {
    const out = await cli('questions', 'import', workspaceId, join(FIXTURES, 'questions.jsonl'), '--name', 'mine')
    expect(out).toMatch(/^Question set #1 "mine"/)
    expect(out).toContain('5 of 10 rows imported (jsonl); 5 bad rows, 3 unresolved gold items')
    expect(out).toContain('line 4: bad row: invalid JSON')
    expect(out).toContain('line 11: unresolved gold sentence 99 of "Charles Babbage"')

    expect(await cli('questions', 'split', workspaceId, '1', '--ratio', '3:1:1', '--seed', '2')).toBe('Question set #1 "mine": dev 1, test 1, train 3\n')
    const sets = JSON.parse(await cli('--json', 'questions', 'list', workspaceId)) as QuestionSetDetail[]
    expect(sets.map((s) => [s.name, s.questions, s.splits])).toEqual([['mine', 5, [{ name: 'dev', count: 1 }, { name: 'test', count: 1 }, { name: 'train', count: 3 }]]])
    const listed = await cli('questions', 'list', workspaceId, '1', '--split', 'train')
    expect(listed.split('\n')[0]).toBe('3 questions')
    expect(listed.match(/\[train\]/g)).toHaveLength(3)
    // Four CLI processes, the import a job whose worker thread starts from source (as generate's does).
  }, 600_000)

  it('generate runs the job, prints yields by kind, and the set lists with provenance', async () => {
    const out = await cli('questions', 'generate', workspaceId, '--name', 'gen', '--seed', '1')
    expect(out).toMatch(/Question set #2 "gen" in [\d.]+ s/)
    expect(out).toMatch(/bridge +kept \d+ +candidates \d+ +answer in question \d+/)
    expect(out).toMatch(/comparison +kept [1-9]\d* +candidates \d+/)
    const json = JSON.parse(await cli('--json', 'questions', 'list', workspaceId, '2', '--limit', '100')) as { total: number; questions: { type: string; provenance: { origin: string } }[] }
    expect(json.total).toBeGreaterThan(0)
    expect(json.questions.every((q) => q.provenance.origin === 'generated')).toBe(true)
    // A bad ratio is refused with the usage, and nothing changes.
    await expect(cli('questions', 'split', workspaceId, '2', '--ratio', '8:1')).rejects.toThrow(/--ratio is train:dev:test/)
    // Without --ratio the set is split by the one default ratio (the demo world's and the Questions page's: 2:1:1).
    const split = JSON.parse(await cli('--json', 'questions', 'split', workspaceId, '2')) as QuestionSetDetail
    expect(split.splitSpec).toEqual({ method: 'ratio', seed: 1, ratios: { train: 2, dev: 1, test: 1 } })
  }, 600_000)
})
