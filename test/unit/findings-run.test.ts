import { existsSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MIN_QUESTIONS, verdictLine } from '../../main/experiments/findings'
import { startBackend, type TestBackend } from '../helpers/services'

/**
 * A miniature findings run end to end: a real workspace database holding a small demo world, real job
 * workers, the five claims' experiments as ablations with two training steps each, the verdicts and the
 * report files.
 */
describe('findings run (miniature)', () => {
  let backend: TestBackend
  let workspaceId: string
  let setId: number

  beforeAll(async () => {
    backend = await startBackend()
    workspaceId = (await backend.call('workspace.create', { name: 'findings' })).id
    const ingest = await backend.call('job.start', { kind: 'corpus.ingest', workspaceId, params: { source: { kind: 'demo', seed: 3, size: 0.5 } } })
    expect((await backend.services.jobs.waitFor(ingest.id)).status).toBe('done')
    setId = (await backend.call('questions.sets', { workspaceId }))[0]!.id
  }, 600_000)
  afterAll(() => backend.close())

  it('lists the five claims with the paper figure each is set beside', async () => {
    const catalog = await backend.call('findings.catalog', {})
    expect(catalog.map((c) => c.number)).toEqual([1, 2, 3, 4, 5])
    for (const c of catalog) expect(c.paper.figure.length).toBeGreaterThan(10)
  })

  it('refuses a set it cannot split, and keeps nothing', async () => {
    await expect(backend.call('findings.save', { workspaceId, config: { questionSetId: 999 } })).rejects.toThrow(/no questions/)
    expect(await backend.call('findings.list', { workspaceId })).toEqual([])
  })

  it('runs every claim as one job, checks its preconditions (no evidence on 4 questions) and writes the report', async () => {
    const saved = await backend.call('findings.save', {
      workspaceId,
      config: { questionSetId: setId, budget: 'quick', overrides: { heldOut: 4, train: 6, steps: 2, groupSize: 2, questionsPerStep: 2 } },
    })
    // Claims 1-3 share the Harness-G arms (the menu with outcome credit is claim 3's outcome-only arm), claims 4-5 the
    // Harness-1 arms (the full harness is claim 5's diversity-on arm): two experiments, each an ablation.
    expect(saved.experiments.map((e) => [e.key, e.claims])).toEqual([
      ['harness-g', ['retrieval-collapse', 'menu-vs-free-query', 'snc-vs-outcome']],
      ['harness-1', ['harness1-mechanisms', 'tool-diversity']],
    ])
    const job = await backend.call('job.start', { kind: 'findings.run', workspaceId, params: { findingsId: saved.id } })
    await expect(backend.call('job.start', { kind: 'findings.run', workspaceId, params: { findingsId: saved.id } })).rejects.toThrow(/already (queued|running)/)
    const done = await backend.services.jobs.waitFor(job.id)
    expect(done.status, done.error ?? '').toBe('done')

    const detail = await backend.call('findings.get', { workspaceId, id: saved.id })
    expect(detail.status).toBe('done')
    expect(detail.ranOn?.corpusSignature).toMatch(/\S/)
    expect(detail.experiments.every((e) => e.status === 'done')).toBe(true)
    const claims = detail.results!.claims
    expect(claims.map((c) => c.name)).toEqual(['retrieval-collapse', 'menu-vs-free-query', 'snc-vs-outcome', 'harness1-mechanisms', 'tool-diversity'])
    for (const c of claims) {
      // 4 held-out questions (and a handful of training groups) are fewer than an informative CI needs: no claim is judged.
      expect(c.effect.count).toBeLessThan(MIN_QUESTIONS)
      expect(c.verdict).toBe('no evidence')
      expect(c.reason).toMatch(new RegExp(`^${c.effect.count} paired questions?, fewer than ${MIN_QUESTIONS} for an informative 95% CI$`))
      expect(c.questions).toBe(4)
      expect(c.seeds).toBe(1)
      expect(c.policy).toMatch(/head/)
      expect(c.departures.join(' ')).toMatch(/steps 2/)
      expect(verdictLine(c)).toBe(`claim ${c.number} ${c.name}: no evidence (${c.reason})`)
    }
    // Held-out claims pair the four questions; the collapse claim pairs training groups; every claim has its arms.
    for (const c of claims.slice(1)) expect(c.effect.count).toBe(4)
    expect(claims[0]!.effect.count).toBeGreaterThan(0)
    expect(claims[0]!.series[0]!.lines.map((l) => l.points.length)).toEqual([2, 2])
    expect(claims[3]!.arms.map((a) => a.label)).toEqual(['full harness', 'all mechanisms off', 'scripted tools (reference)'])
    expect(claims[4]!.series[0]!.lines.length).toBeGreaterThan(0)

    const report = await backend.call('findings.export', { workspaceId, id: saved.id })
    const md = readFileSync(report.files[0]!, 'utf8')
    for (const c of claims) expect(md).toContain(verdictLine(c))
    const svgs = report.files.filter((f) => f.endsWith('.svg'))
    expect(svgs.length).toBeGreaterThanOrEqual(5)
    for (const f of svgs) expect(readFileSync(f, 'utf8')).toMatch(/^<svg /)
    const csv = readFileSync(report.files.find((f) => f.endsWith('cells.csv'))!, 'utf8').trim().split('\n')
    expect(csv[0]).toBe('experiment,ablation_id,row,question_id,seed,metric,value')
    expect(csv.length).toBeGreaterThan(40)
    const configs = JSON.parse(readFileSync(report.files.find((f) => f.endsWith('configs.json'))!, 'utf8')) as { experiments: unknown[] }
    expect(configs.experiments).toHaveLength(2)
    expect(report.files.every((f) => existsSync(f))).toBe(true)

    // A finished run is never run again.
    await expect(backend.call('job.start', { kind: 'findings.run', workspaceId, params: { findingsId: saved.id } })).rejects.toThrow(/is finished/)
  }, 600_000)

  it('survives a cancel: finished experiments and cells stay, and running it again resumes from them', async () => {
    const saved = await backend.call('findings.save', { workspaceId, config: { questionSetId: setId, overrides: { heldOut: 3, train: 4, steps: 1, groupSize: 2, questionsPerStep: 1 } } })
    const job = await backend.call('job.start', { kind: 'findings.run', workspaceId, params: { findingsId: saved.id } })
    // Cancel once the second experiment is under way (its progress stage names it).
    await new Promise<void>((resolve) => {
      const off = backend.services.events.subscribe((name, p) => {
        const progress = p as { jobId: string; stage: string }
        if (name === 'job.progress' && progress.jobId === job.id && progress.stage.startsWith('harness-1')) {
          off()
          resolve()
        }
      })
    })
    await backend.call('job.cancel', { id: job.id })
    expect((await backend.services.jobs.waitFor(job.id)).status).toBe('cancelled')
    const stopped = await backend.call('findings.get', { workspaceId, id: saved.id })
    expect(stopped.status).toBe('cancelled')
    expect(stopped.results).toBeNull()
    expect(stopped.experiments[0]!.status).toBe('done')
    const firstRuns = (await backend.call('ablations.get', { workspaceId, id: stopped.experiments[0]!.ablationId })).cells.map((c) => c.runId)

    const again = await backend.call('job.start', { kind: 'findings.run', workspaceId, params: { findingsId: saved.id } })
    expect((await backend.services.jobs.waitFor(again.id)).status).toBe('done')
    const detail = await backend.call('findings.get', { workspaceId, id: saved.id })
    expect(detail.status).toBe('done')
    expect(detail.results!.claims).toHaveLength(5)
    // The finished experiment was not run again: its cells keep their runs.
    expect((await backend.call('ablations.get', { workspaceId, id: detail.experiments[0]!.ablationId })).cells.map((c) => c.runId)).toEqual(firstRuns)
  }, 600_000)

  it('saves only the claims asked for (their experiments), and refuses a claim that does not exist', async () => {
    const overrides = { heldOut: 4, train: 6, steps: 2, groupSize: 2, questionsPerStep: 2 }
    const catalog = await backend.call('findings.catalog', {})
    const saved = await backend.call('findings.save', { workspaceId, config: { questionSetId: setId, claims: [1, 2], overrides } })
    expect(saved.experiments.flatMap((e) => e.claims).sort()).toEqual(catalog.filter((c) => c.number <= 2).map((c) => c.name).sort())
    expect(saved.name).toMatch(/claims 1, 2\)$/)
    const before = (await backend.call('findings.list', { workspaceId })).length
    await expect(backend.call('findings.save', { workspaceId, config: { questionSetId: setId, claims: [2, 9], overrides } })).rejects.toThrow(/No claim 9/)
    expect(await backend.call('findings.list', { workspaceId })).toHaveLength(before)
  })
})
