/**
 * The command line over a real data folder, run as its own process (`tsx main/cli.ts`, as
 * `npm run cli` does): `eval` prints the same aggregates as the same evaluation started the way the
 * Runs page starts it (job.start over the API), `runs list|show|export` read and write that run.
 */
import { execFile } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RUN_EXPORT_FORMATS, type RunSummary } from '../../preload/contract'
import { startBackend, tempDir, type TestBackend } from '../helpers/services'

const run = promisify(execFile)
const root = join(import.meta.dirname, '..', '..')
const tsx = join(root, 'node_modules', '.bin', 'tsx')

describe('command line', () => {
  const tmp = tempDir('harness-lab-cli-')
  let workspaceId: string
  let setId: number
  let preset: { name: string; delta: Record<string, unknown> }
  const cli = async (...args: string[]) => {
    const r = await run(tsx, [join(root, 'main', 'cli.ts'), '--data-dir', tmp.dir, ...args], { cwd: root, maxBuffer: 64 << 20, env: { ...process.env, HARNESS_LAB_DATA_DIR: '' } })
    return r.stdout
  }
  const withBackend = async <T>(fn: (b: TestBackend) => Promise<T>): Promise<T> => {
    const b = await startBackend(tmp.dir)
    try {
      return await fn(b)
    } finally {
      await b.services.close()
    }
  }

  beforeAll(async () => {
    await withBackend(async (b) => {
      workspaceId = (await b.call('workspace.create', { name: 'cli' })).id
      const ingest = await b.call('job.start', { kind: 'corpus.ingest', workspaceId, params: { source: { kind: 'demo', seed: 5, size: 0.5 } } })
      expect((await b.services.jobs.waitFor(ingest.id)).status).toBe('done')
      setId = (await b.call('questions.sets', { workspaceId }))[0]!.id
      const menu = (await b.call('harness.catalog', {})).environments.find((e) => e.name === 'graph-menu')!
      preset = menu.presets.find((p) => Object.keys(p.delta).length > 0) ?? menu.presets[0]!
    })
  }, 600_000)
  afterAll(() => tmp.cleanup())

  it('eval prints the same aggregates as the same evaluation started from the Runs page', async () => {
    const out = await cli('--json', 'eval', workspaceId, '--env', 'graph-menu', '--preset', preset.name, '--config', '{"maxLookup": 4}', '--policy', 'random', '--set', String(setId), '--limit', '6', '--seed', '7')
    const fromCli = JSON.parse(out) as RunSummary
    expect(fromCli.episodes).toBe(6)

    const fromUi = await withBackend(async (b) => {
      const job = await b.call('job.start', {
        kind: 'eval.run', workspaceId,
        params: { environment: 'graph-menu', envConfig: { ...preset.delta, maxLookup: 4 }, policy: { kind: 'scripted', name: 'random' }, questionSetId: setId, limit: 6, seed: 7 },
      })
      const done = await b.services.jobs.waitFor(job.id)
      expect(done.status, done.error ?? '').toBe('done')
      const runs = await b.call('runs.list', { workspaceId })
      const { metrics } = await b.call('harness.catalog', {})
      return { run: runs.find((r) => done.kind === 'eval.run' && r.id === done.result!.runId)!, timing: new Set(metrics.filter((m) => m.format === 'ms').map((m) => m.name)) }
    })
    expect(fromCli.config?.envConfig).toEqual(fromUi.run.config?.envConfig)
    const names = Object.keys(fromUi.run.metrics).filter((n) => !fromUi.timing.has(n) && !/(^|\.)ms$|seconds/.test(n))
    expect(names.length).toBeGreaterThan(5)
    expect(Object.keys(fromCli.metrics).sort()).toEqual(Object.keys(fromUi.run.metrics).sort())
    for (const n of names) expect([n, fromCli.metrics[n]]).toEqual([n, fromUi.run.metrics[n]])

    // The text table shows those figures as the pages do.
    const shown = await cli('runs', 'show', workspaceId, String(fromCli.id))
    const f1 = fromCli.metrics['answer.f1.official']!.mean!
    expect(shown).toContain(`${(f1 * 100).toFixed(1)}%`)
    expect(shown).toMatch(/answer\.f1\.official/)
    expect(await cli('runs', 'list', workspaceId)).toContain(`#${fromCli.id}`)
  }, 600_000)

  it('runs export writes every run format, and export-questions every dataset format', async () => {
    const runs = JSON.parse(await cli('--json', 'runs', 'list', workspaceId)) as RunSummary[]
    const written = JSON.parse(await cli('--json', 'runs', 'export', workspaceId, String(runs[0]!.id), '--format', 'all')) as { file: string; format: string; rows: number }[]
    expect(written.map((w) => w.format)).toEqual([...RUN_EXPORT_FORMATS])
    for (const w of written) expect(existsSync(w.file)).toBe(true)
    expect(readFileSync(written[0]!.file, 'utf8').split('\r\n').length - 2).toBe(runs[0]!.episodes)
    const out = join(tmp.dir, 'verl.parquet')
    const [q] = JSON.parse(await cli('--json', 'export-questions', workspaceId, String(setId), '--format', 'questions-verl-parquet', '--out', out)) as { file: string; rows: number }[]
    expect(q!.file).toBe(out)
    expect(readFileSync(out).subarray(0, 4).toString()).toBe('PAR1')
    await expect(cli('runs', 'export', workspaceId, '1', '--format', 'nope')).rejects.toMatchObject({ stderr: expect.stringContaining('Unknown run export format "nope"') })
    await expect(cli('eval', workspaceId, '--env', 'graph-menu', '--config', '{bad')).rejects.toMatchObject({ stderr: expect.stringContaining('--config is not JSON') })
  }, 600_000)

  it("--split writes what each consumer reads: FlashRAG's <split>.jsonl (its get_dataset loads them), a run's SFT rows per split with the episode's reward", async () => {
    const flashrag = join(tmp.dir, 'flashrag')
    await cli('export-questions', workspaceId, String(setId), '--format', 'questions-flashrag-jsonl', '--split', 'train,test', '--out', flashrag)
    expect(readdirSync(flashrag).sort()).toEqual(['test.jsonl', 'train.jsonl'])
    // FlashRAG's loader (flashrag/utils/utils.py get_dataset at 1ee5249, read 2026-12): for each configured split,
    // <dataset_path>/<split>.<jsonl|json|parquet> when it exists, one item per JSON line (id, question, golden_answers, metadata).
    const loader = `
import json, os, sys
def get_dataset(config):
    out = {split: None for split in config["split"]}
    for split in config["split"]:
        path = next((p for p in (os.path.join(config["dataset_path"], f"{split}.{x}") for x in ("jsonl", "json", "parquet")) if os.path.exists(p)), None)
        if path is not None:
            out[split] = [json.loads(line) for line in open(path) if line.strip()]
    return out
data = get_dataset({"dataset_path": sys.argv[1], "split": ["train", "dev", "test"]})
print(json.dumps({k: None if v is None else [[r["id"], r["question"], r["golden_answers"], r["metadata"]["split"], r["metadata"]["question_id"]] for r in v] for k, v in data.items()}))
`
    const loaded = JSON.parse((await run('python3', ['-c', loader, flashrag])).stdout) as Record<string, [string, string, string[], string, number][] | null>
    const sets = await withBackend((b) => b.call('questions.sets', { workspaceId }))
    const counts = Object.fromEntries(sets.find((s) => s.id === setId)!.splits.map((s) => [s.name, s.count]))
    expect(loaded.dev).toBeNull()
    for (const split of ['train', 'test']) {
      expect(loaded[split]!.length, split).toBe(counts[split])
      for (const [id, question, answers, label] of loaded[split]!) expect([typeof id, question.length > 0, Array.isArray(answers), label]).toEqual(['string', true, true, split])
    }
    const splitOf = new Map([...loaded.train!, ...loaded.test!].map((r) => [r[4], r[3]]))

    // A run's SFT rows, one file per split label of the questions it played; each row carries its episode's reward
    // (an evaluation on graph-menu: SP F1, the Harness-G default on the demo world's sentence gold).
    const runs = JSON.parse(await cli('--json', 'runs', 'list', workspaceId)) as RunSummary[]
    const evalRun = runs.find((r) => r.config?.environment === 'graph-menu')!
    const sft = join(tmp.dir, 'sft')
    const written = JSON.parse(await cli('--json', 'runs', 'export', workspaceId, String(evalRun.id), '--format', 'run-sft-jsonl', '--split', 'all', '--out', sft)) as { file: string; rows: number }[]
    const whole = JSON.parse(await cli('--json', 'runs', 'export', workspaceId, String(evalRun.id), '--format', 'run-sft-jsonl', '--out', join(tmp.dir, 'sft-all.jsonl'))) as { rows: number }[]
    expect(written.length).toBeGreaterThan(1)
    expect(written.reduce((a, w) => a + w.rows, 0)).toBe(whole[0]!.rows)
    for (const w of written) {
      const label = w.file.slice(sft.length + 1, -'.jsonl'.length)
      const rows = readFileSync(w.file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { metadata: { questionId: number; reward: number | null; metrics: Record<string, number | null> } })
      for (const { metadata } of rows) {
        if (splitOf.has(metadata.questionId)) expect(splitOf.get(metadata.questionId), label).toBe(label)
        expect(metadata.reward).toBe(metadata.metrics['sp.f1'])
        expect(typeof metadata.reward).toBe('number')
      }
    }
    await expect(cli('runs', 'export', workspaceId, String(evalRun.id), '--split', 'holdout', '--out', sft)).rejects.toMatchObject({ stderr: expect.stringMatching(/has no split "holdout"; its splits: /) })
  }, 600_000)
})
