/**
 * Know the ceiling: the bounded search over the environment's own transitions finds every gold unit
 * the oracle commits (the oracle is never above the ceiling), reaches all gold on the MuSiQue-format
 * fixture under the default budget, and names a reason for gold it cannot reach under a budget too
 * small to fetch it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ceilingReport, searchCeiling } from '../../main/experiments/ceiling'
import { createEnvironment } from '../../main/harness'
import { openMuSiQueWorkspace, type MuSiQueWorkspace } from '../helpers/musique-workspace'

describe('the ceiling of reachable gold', () => {
  let w: MuSiQueWorkspace
  beforeAll(async () => {
    w = await openMuSiQueWorkspace()
  }, 600_000)
  afterAll(() => w.close())

  it('reaches every gold paragraph of the fixture in both environments, and the oracle matches it', async () => {
    for (const env of ['graph-menu', 'free-query']) {
      const row = await ceilingReport(w.ctx, w.questions, env)
      expect(row.units, env).toBe(w.questions.reduce((s, q) => s + q.gold!.documentIds.length, 0))
      expect(row.reachable, env).toBe(1)
      expect(row.oracle, env).toBeLessThanOrEqual(row.reachable)
      expect(row.oracleShort, env).toEqual([])
      for (const q of row.perQuestion) expect(q.oracle, `${env} q${q.questionId}`).toBeLessThanOrEqual(q.reachable)
    }
  }, 600_000)

  it('the best path it reports commits what it claims when replayed', async () => {
    const env = createEnvironment('graph-menu', w.ctx, { initialK: 1, initialSentences: 1 })
    const q = w.questions[0]!
    const r = await searchCeiling(env, w.ctx, q, 7)
    await env.reset(q, 7)
    for (const a of r.bestPath) await env.step(a)
    const documents = new Set((env.outcome().evidence.sentenceIds ?? []).map((id) => w.ctx.corpus.sentence(id)!.documentId))
    expect(r.best.map((i) => r.units[i]!.id).every((id) => documents.has(id!))).toBe(true)
    expect(r.best.length).toBe(r.units.length)
  }, 600_000)

  it('searches where the environment offers a search tool: free query with nothing visible reaches gold through its own queries', async () => {
    const env = createEnvironment('free-query', w.ctx, { initialK: 0 })
    const q = w.questions[0]!
    const r = await searchCeiling(env, w.ctx, q, 7)
    expect(r.best.length).toBeGreaterThan(0)
    expect(r.bestPath.some((a) => a.kind === 'tool' && a.name === 'search')).toBe(true)
  }, 600_000)

  it('gives a reason for every unit out of reach: one turn with nothing visible leaves the gold unsurfaced', async () => {
    const env = createEnvironment('graph-menu', w.ctx, { initialK: 0, turnLimit: 1 })
    const q = w.questions[0]!
    const r = await searchCeiling(env, w.ctx, q, 7)
    expect(r.best).toEqual([])
    expect(r.reasons.size).toBe(r.units.length)
    for (const reason of r.reasons.values()) expect(['never surfaced', 'LOOKUP target filtered']).toContain(reason)
  }, 600_000)
})
