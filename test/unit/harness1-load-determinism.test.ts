/**
 * A seeded Harness-1 evaluation does not depend on how busy the machine is: grep_corpus stops on a work
 * budget (characters scanned), never on the clock. The same `eval --env stateful` runs twice through the
 * command line (main/cli.ts's entry, in the test's process), once on its own and once beside four processes that keep every core busy, with a scan
 * budget small enough that greps stop part-way; the two runs' trajectories are identical, and both runs
 * store that no wall-clock guard fired. A run whose guard does fire says so in its steps, its episodes,
 * its stored summary and `runs show`.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunSummary } from '../../preload/contract'
import { withBackend as withBackendOn } from '../helpers/cli'
import { cliInProcess } from '../helpers/cli-in-process'
import { tempDir, type TestBackend } from '../helpers/services'

/** A process that keeps one core busy until it is killed. */
const hog = (): ChildProcess => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' })

describe('Harness-1 under machine load', () => {
  const tmp = tempDir('harness-lab-load-')
  let workspaceId: string
  /** One command through the command line's entry (main/cli.ts), in this process: its stdout, or why it failed. */
  const cli = async (...args: string[]): Promise<string> => {
    const r = await cliInProcess(tmp.dir, args)
    if (r.code !== 0) throw new Error(`${args.join(' ')} exited ${r.code}: ${r.stderr}`)
    return r.stdout
  }
  const withBackend = <T>(fn: (b: TestBackend) => Promise<T>): Promise<T> => withBackendOn(tmp.dir, fn)
  /** Everything of a run's episodes that the seed decides: actions, observations, step results, outcomes and metrics (timings left out). */
  const trajectories = (runId: number) =>
    withBackend(async (b) => {
      const { episodes } = await b.call('runs.episodes', { workspaceId, runId, limit: 1000 })
      const out = []
      for (const e of episodes) {
        const full = await b.call('runs.episode', { workspaceId, episodeId: e.id })
        const metrics = Object.fromEntries(Object.entries(full.metrics).filter(([name]) => !/(^|\.)ms$|seconds|latency/i.test(name)))
        out.push({
          question: full.questionId,
          seed: full.seed,
          answer: full.answer,
          outcome: full.outcome,
          metrics,
          steps: full.steps.map((s) => ({ observation: s.observationText, action: s.action, valid: s.info.valid, summary: s.info.summary, added: s.info.added, guard: s.info.wallClockGuard })),
        })
      }
      return out
    })
  const evaluate = async (config: Record<string, unknown>, name: string): Promise<RunSummary> =>
    JSON.parse(await cli('--json', 'eval', workspaceId, '--env', 'stateful', '--config', JSON.stringify(config), '--policy', 'scripted-tools', '--limit', '10', '--seed', '11', '--name', name, '--no-previews')) as RunSummary

  beforeAll(async () => {
    await withBackend(async (b) => {
      workspaceId = (await b.call('workspace.create', { name: 'load' })).id
      const ingest = await b.call('job.start', { kind: 'corpus.ingest', workspaceId, params: { source: { kind: 'demo', seed: 3, size: 1 } } })
      expect((await b.services.jobs.waitFor(ingest.id)).status).toBe('done')
    })
  }, 600_000)
  afterAll(() => tmp.cleanup())

  it('gives identical trajectories on an idle machine and beside four busy processes, and stores that no wall-clock guard fired', async () => {
    // Small enough that a grep of a common word stops part-way through the demo corpus.
    const config = { grepScanChars: 20_000 }
    const idle = await evaluate(config, 'idle')
    const hogs = [hog(), hog(), hog(), hog()]
    let loaded: RunSummary
    try {
      loaded = await evaluate(config, 'loaded')
    } finally {
      for (const h of hogs) h.kill('SIGKILL')
    }
    expect(idle.episodes).toBe(10)
    expect(loaded.episodes).toBe(10)
    const a = await trajectories(idle.id)
    const b = await trajectories(loaded.id)
    expect(b).toEqual(a)
    // The work budget shaped the episodes (some grep stopped part-way), and nothing stopped on the clock.
    const greps = a.flatMap((e) => e.steps).filter((s) => s.summary.startsWith('grep_corpus'))
    expect(greps.length).toBeGreaterThan(0)
    expect(greps.some((s) => /stopped after scanning [\d,]+ characters/.test(s.observation + s.summary))).toBe(true)
    expect(idle.wallClockGuards).toEqual({ episodes: 0, steps: 0 })
    expect(loaded.wallClockGuards).toEqual({ episodes: 0, steps: 0 })
    expect(a.every((e) => e.outcome.wallClockGuards === undefined)).toBe(true)
  }, 900_000)

  it('says so in the step, the episode, the run and runs show when the wall-clock guard fires', async () => {
    const guarded = await evaluate({ grepTimeBudgetMs: 0.000001 }, 'guarded')
    expect(guarded.wallClockGuards!.episodes).toBeGreaterThan(0)
    expect(guarded.wallClockGuards!.steps).toBeGreaterThanOrEqual(guarded.wallClockGuards!.episodes)
    const episodes = await trajectories(guarded.id)
    const flagged = episodes.filter((e) => (e.outcome.wallClockGuards ?? 0) > 0)
    expect(flagged.length).toBe(guarded.wallClockGuards!.episodes)
    for (const e of flagged) {
      const steps = e.steps.filter((s) => s.guard !== undefined)
      expect(steps.length).toBe(e.outcome.wallClockGuards)
      expect(steps[0]!.guard).toMatch(/grep_corpus stopped at its .* ms wall-clock guard/)
    }
    const shown = await cli('runs', 'show', workspaceId, String(guarded.id))
    expect(shown).toContain(`Wall-clock guard fired in ${guarded.wallClockGuards!.steps} step`)
  }, 600_000)

  it('a training run stores it too: its rollouts and held-out evaluations, none when the guard never fires', async () => {
    const train = async (envConfig: Record<string, unknown>) => {
      const config = join(tmp.dir, `train-${Object.keys(envConfig).length}.json`)
      writeFileSync(config, JSON.stringify({ envConfig }))
      const out = JSON.parse(await cli('--json', 'train', workspaceId, '--env', 'stateful', '--split', '0:4', '--held-out', '4:3', '--steps', '1', '--config', config)) as { runId: number }
      return (JSON.parse(await cli('--json', 'runs', 'list', workspaceId)) as RunSummary[]).find((r) => r.id === out.runId)!
    }
    expect((await train({})).wallClockGuards).toEqual({ episodes: 0, steps: 0 })
    const guarded = await train({ grepTimeBudgetMs: 0.000001 })
    expect(guarded.wallClockGuards!.episodes).toBeGreaterThan(0)
  }, 600_000)
})
