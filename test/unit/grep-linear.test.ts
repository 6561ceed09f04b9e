/**
 * Grep patterns run in linear time: `(\w+\s?)+$`, which makes a backtracking engine run for hours on
 * one long line that ends in punctuation, answers through the real dispatcher and the backend keeps
 * answering afterwards. The calls run in a child process so that, were matching to backtrack, the
 * child is killed and the test fails instead of blocking the test runner; constructs RE2 lacks are
 * refused with an error that names them.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { compileLinear } from '../../main/retrieval/linear-regex'
import { tempDir } from '../helpers/services'

const run = promisify(execFile)
const ROOT = join(import.meta.dirname, '..', '..')
const url = (p: string) => JSON.stringify(pathToFileURL(join(ROOT, p)).href)

describe('grep patterns in linear time', () => {
  const tmp = tempDir('harness-lab-grep-')
  afterAll(() => tmp.cleanup())

  it('answers a catastrophic-backtracking pattern over a long line, and the backend keeps answering', async () => {
    const folder = join(tmp.dir, 'corpus')
    mkdirSync(folder)
    // Thousands of words ending in "!": `$` never follows a word, the case a backtracking engine cannot finish.
    writeFileSync(join(folder, 'long-line.txt'), `${'word '.repeat(4000).trim()}!\n`)
    writeFileSync(join(folder, 'ends-in-a-word.txt'), 'Short\n\nThe tower stands in Paris')
    const code = `
      const { createServices } = await import(${url('main/app/services.ts')})
      const { createHandlers } = await import(${url('main/api/handlers/index.ts')})
      const { dispatch } = await import(${url('main/api/dispatch.ts')})
      const { runIngest, defaultIngestOptions } = await import(${url('main/ingest/run.ts')})
      const services = await createServices({ dataDir: ${JSON.stringify(join(tmp.dir, 'data'))}, worker: (await import(${url('main/job-kinds/source-entry.ts')})).sourceWorkerEntry() })
      const handlers = createHandlers(services, { mode: 'cli' })
      const call = async (route, input) => { const e = await dispatch(handlers, route, input); if (!e.ok) throw new Error(e.error.message); return e.data }
      const { id } = await call('workspace.create', { name: 'grep' })
      const { raw } = await services.workspaces.handle(id)
      await runIngest(raw, { kind: 'folder', path: ${JSON.stringify(folder)} }, defaultIngestOptions(), { progress: () => {}, throwIfCancelled: () => {} })
      const grep = await call('corpus.grep', { workspaceId: id, pattern: '(\\\\w+\\\\s?)+$', flags: '', maxResults: 10, timeBudgetMs: 10000 })
      const info = await call('app.info', {})
      process.stdout.write(JSON.stringify({ hits: grep.hits.map((h) => h.title + ': ' + h.match), timedOut: grep.timedOut, mode: info.mode }))
      await services.close()`
    // The kill is a guard against a backtracking engine, not a measurement: it only turns a hang into a failure.
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: ROOT, timeout: 600_000, killSignal: 'SIGKILL' })
    const out = JSON.parse(stdout) as { hits: string[]; timedOut: boolean; mode: string }
    expect(out.timedOut).toBe(false)
    // Only the passage that ends in a word matches, and all of its last line does.
    expect(out.hits).toEqual(['ends-in-a-word: The tower stands in Paris'])
    expect(out.mode).toBe('cli')
  }, 600_000)

  it('refuses backreferences and lookaround with an error naming the construct', () => {
    expect(() => compileLinear('(a)\\1')).toThrow('Invalid regular expression /(a)\\1/: the backreference \\1 is not supported')
    expect(() => compileLinear('(?<n>a)\\k<n>')).toThrow(/the named backreference \\k<…> is not supported/)
    expect(() => compileLinear('Paris(?= Tower)')).toThrow(/the lookahead \(\?=…\) is not supported: patterns run on a linear-time engine \(RE2\)/)
    expect(() => compileLinear('a(?!b)')).toThrow(/the negative lookahead/)
    expect(() => compileLinear('(?<=a)b')).toThrow(/the lookbehind/)
    expect(() => compileLinear('(?<!a)b')).toThrow(/the negative lookbehind/)
    // The same characters inside a class or escaped are literals, not constructs.
    expect([...compileLinear('[(?=]\\(\\?=').matches('x=(?=y')].map((m) => m.text)).toEqual(['=(?='])
  })

  it('keeps JavaScript syntax and flags: named groups, escaped slashes, i, m, s, offsets in UTF-16 units', () => {
    const text = 'Ünïcode 😀 Tour Eiffel\nparis/France'
    expect([...compileLinear('tour (?<name>\\w+)', 'i').matches(text)]).toEqual([{ index: 11, text: 'Tour Eiffel' }])
    expect([...compileLinear('^paris\\/\\w+$', 'm').matches(text)].map((m) => m.text)).toEqual(['paris/France'])
    expect([...compileLinear('Eiffel.paris', 's').matches(text)]).toHaveLength(1)
    expect([...compileLinear('Eiffel.paris').matches(text)]).toHaveLength(0)
    expect([...compileLinear('y*').matches('xyyx y')].map((m) => [m.index, m.text])).toEqual([[1, 'yy'], [5, 'y']])
  })
})
