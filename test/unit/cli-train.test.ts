/**
 * `train` and `eval --policy head` on the command line, run as their own processes over a real data
 * folder holding the MuSiQue-format fixture (paragraph-level gold only): a sentence reward is refused
 * with the message naming the term and a preset; with defaults the run trains on a paragraph reward and
 * prints paragraph metrics; the trained head evaluates as an ordinary run that pairs with greedy in
 * runs.compare, as does the training run itself (by its held-out results); the exported head weights
 * evaluate the same, and a file of another feature layout is refused.
 */
import { execFile } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunSummary } from '../../preload/contract'
import { MUSIQUE_REPEATED_TITLES } from '../helpers/musique-workspace'
import { startBackend, tempDir } from '../helpers/services'

const run = promisify(execFile)
const root = join(import.meta.dirname, '..', '..')
const tsx = join(root, 'node_modules', '.bin', 'tsx')

describe('command line: train and evaluate a trained head (paragraph gold)', () => {
  const tmp = tempDir('harness-lab-cli-train-')
  let workspaceId: string
  const cli = async (...args: string[]) => {
    try {
      const r = await run(tsx, [join(root, 'main', 'cli.ts'), '--data-dir', tmp.dir, ...args], { cwd: root, maxBuffer: 64 << 20, env: { ...process.env, HARNESS_LAB_DATA_DIR: '' } })
      return { code: 0, stdout: r.stdout, stderr: r.stderr }
    } catch (err) {
      const e = err as { code: number; stdout: string; stderr: string }
      return { code: e.code, stdout: e.stdout, stderr: e.stderr }
    }
  }

  beforeAll(async () => {
    const b = await startBackend(tmp.dir)
    try {
      workspaceId = (await b.call('workspace.create', { name: 'musique' })).id
      const job = await b.call('job.start', { kind: 'corpus.ingest', workspaceId, params: { source: { kind: 'benchmark', benchmark: 'musique', questionsFile: MUSIQUE_REPEATED_TITLES } } })
      expect((await b.services.jobs.waitFor(job.id)).status).toBe('done')
    } finally {
      await b.services.close()
    }
  }, 600_000)
  afterAll(() => tmp.cleanup())

  it('refuses a sentence reward, trains on the paragraph default, and its head pairs with greedy', async () => {
    const refused = await cli('train', workspaceId, '--env', 'graph-menu', '--split', '0:3', '--held-out', '3:2', '--reward', 'sp-f1-all-gold')
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toMatch(/Reward term "sp\.f1" \(Supporting-fact F1\) needs sentence-level \(supporting-fact\) gold.*use the reward preset "paragraph-f1-all-gold"/)

    const trained = await cli('--json', 'train', workspaceId, '--env', 'graph-menu', '--split', '0:3', '--held-out', '3:2', '--steps', '2', '--credit', 'outcome')
    expect(trained.code, trained.stderr).toBe(0)
    expect(trained.stderr).toMatch(/Step 2\/2 · step 1 mean reward -?\d+\.\d{3}/)
    expect(trained.stderr).toMatch(/2 steps · step 2 mean reward -?\d+\.\d{3}/)
    const t = JSON.parse(trained.stdout) as { runId: number; headlineMetric: string; goldLevel: string; reward: { weights: Record<string, number> }; heldOut: { comparison: { metric: string }[]; before: { metrics: Record<string, { lower: number | null }> } } }
    expect(t.goldLevel).toBe('paragraph')
    expect(t.headlineMetric).toBe('paragraph.f1')
    expect(Object.keys(t.reward.weights)).toEqual(['paragraph.f1', 'paragraph.allGold'])
    expect(t.heldOut.comparison.map((c) => c.metric)).toEqual(['paragraph.f1', 'paragraph.recall', 'paragraph.precision', 'paragraph.allGold', 'evidence.count'])
    expect(t.heldOut.before.metrics['paragraph.f1']!.lower).toEqual(expect.any(Number))

    const text = await cli('train', workspaceId, '--resume', String(t.runId))
    expect(text.stderr).toMatch(/is finished/)

    const head = JSON.parse((await cli('--json', 'eval', workspaceId, '--env', 'graph-menu', '--policy', 'head', '--training-run', String(t.runId), '--offset', '3', '--limit', '2')).stdout) as RunSummary
    const greedy = JSON.parse((await cli('--json', 'eval', workspaceId, '--env', 'graph-menu', '--policy', 'greedy', '--offset', '3', '--limit', '2')).stdout) as RunSummary
    expect(head.episodes).toBe(2)
    expect(head.config).toMatchObject({ kind: 'evaluation', policy: { kind: 'head', trainingRun: t.runId } })
    const compared = JSON.parse((await cli('--json', 'compare', workspaceId, String(greedy.id), String(head.id), String(t.runId), '--metric', 'paragraph.f1')).stdout) as { comparisons: { runId: number; count: number; candidateMean: number | null; note: string | null }[] }
    expect(compared.comparisons.map((c) => c.count)).toEqual([2, 2])
    // The head evaluated as a run scores what its training run's final held-out evaluation scored.
    expect(compared.comparisons[0]!.candidateMean).toBeCloseTo(compared.comparisons[1]!.candidateMean!, 10)
    expect(compared.comparisons[1]!.note).toMatch(/held-out evaluation \(after training\), not its training rollouts/)
    // With no --metric, compare judges by what train reported on this gold level (paragraph F1), its differences in pp.
    const byDefault = (await cli('compare', workspaceId, String(greedy.id), String(head.id))).stdout
    expect(byDefault).toMatch(/^#\d+ vs #\d+ {2}Paragraph F1 \(evidence\): \d+\.\d% → \d+\.\d% {2}diff [+-]?\d+\.\d pp/)
    expect(byDefault).not.toMatch(/diff [+-]?\d+\.\d%/)
    // runs list shows that evidence metric on paragraph gold.
    expect((await cli('runs', 'list', workspaceId)).stdout).toMatch(new RegExp(`#${head.id} .*Paragraph F1 \\(evidence\\) \\d+\\.\\d%`))

    const file = join(tmp.dir, 'head.json')
    expect((await cli('export-head', workspaceId, String(t.runId), file)).code).toBe(0)
    const fromFile = JSON.parse((await cli('--json', 'eval', workspaceId, '--env', 'graph-menu', '--policy', 'head-file', '--head-file', file, '--offset', '3', '--limit', '2')).stdout) as RunSummary
    expect(fromFile.metrics['paragraph.f1']!.mean).toBe(head.metrics['paragraph.f1']!.mean)
    const other = JSON.parse(readFileSync(file, 'utf8')) as { layout: { version: string; inputs: string[] } }
    writeFileSync(file, JSON.stringify({ ...other, layout: { version: 'layout-000000000000', inputs: other.layout.inputs.slice(1) } }))
    const mismatched = await cli('eval', workspaceId, '--env', 'graph-menu', '--policy', 'head-file', '--head-file', file, '--limit', '1')
    expect(mismatched.code).not.toBe(0)
    expect(mismatched.stderr).toMatch(/was trained on feature layout layout-000000000000, this build uses layout-[0-9a-f]{12}.*inputs gone: none/)
  }, 600_000)
})
