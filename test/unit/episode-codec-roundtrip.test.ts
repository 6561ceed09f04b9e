/**
 * Compact trajectory storage: every environment's episodes, stored as one blob of per-step deltas,
 * read back through runs.episode exactly as the row format gave them; old row-format episodes still
 * read; pruning drops the steps and keeps the per-question results.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeEpisodeSteps, encodeEpisodeSteps } from '../../main/experiments/runs/episode-codec'
import { applyDelta, jsonDelta, type Json } from '../../main/experiments/runs/episode-codec-delta'
import { compareRuns } from '../../main/experiments/runs/compare'
import { getEpisode, listEpisodes } from '../../main/experiments/runs/read-model'
import { episodeColumns, RunStore } from '../../main/experiments/runs/store'
import { createEnvironment, environmentFactory, environmentNames, runEpisode, type Trajectory } from '../../main/harness'
import { environmentContext } from '../../main/harness/types'
import { createScriptedPolicy, scriptedPolicies } from '../../main/policy/scripted'
import { openDemoWorkspace, type DemoWorkspace } from '../helpers/corpus'
import { evaluationConfig } from '../helpers/episodes'

let demo: DemoWorkspace
beforeAll(async () => {
  demo = await openDemoWorkspace(7, 0.6)
})
afterAll(async () => {
  await demo.close()
})

const count = (sql: string, ...params: unknown[]): number => Number(demo.db.raw.prepare(sql).pluck().get(...params))

async function episodes(name: string, n: number): Promise<Trajectory[]> {
  const protocol = environmentFactory(name).protocol
  const policy = scriptedPolicies().find((p) => p.protocols.includes(protocol))!.name
  const env = createEnvironment(name, environmentContext(demo.db.raw))
  const out: Trajectory[] = []
  for (const [i, q] of demo.questions.slice(0, n).entries()) out.push(await runEpisode(env, createScriptedPolicy(policy, protocol), q, 40 + i, { previews: true }))
  return out
}

describe('structural JSON deltas', () => {
  it('rebuild the next value exactly, key order, appends, removals and a "__proto__" key included', () => {
    const pairs: [Json, Json][] = [
      [{ a: 1, b: [1, 2] }, { a: 1, b: [1, 2, 3] }],
      [{ a: 1, b: 2 }, { b: 2, a: 1 }],
      [{ a: 1, b: 2, c: 3 }, { a: 1, c: 4 }],
      [[1, 2, 3], [1]],
      [{ x: { y: [{ z: 1 }] } }, { x: { y: [{ z: 2 }, { z: 3 }] } }],
      [{ a: 1 }, JSON.parse('{"a":1,"__proto__":{"polluted":true}}') as Json],
      [[1], { 0: 1 }],
      [null, 'text'],
      [{ 2: 'b', 1: 'a' }, { 1: 'a', 3: 'c' }],
    ]
    for (const [prev, next] of pairs) {
      const rebuilt = applyDelta(prev, jsonDelta(prev, next))
      expect(JSON.stringify(rebuilt)).toBe(JSON.stringify(next))
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(jsonDelta({ a: [1, 2] }, { a: [1, 2] })).toBe(0)
  })

  it('the codec refuses what it cannot reproduce and reads only its own format', () => {
    const steps = [{ t: 0, observation_text: 'o', actions_json: '[ 1 ]', previews_json: null, action_json: '{}', decision_json: '{}', info_json: '{}', snapshot_json: 'null', ms: 1.5 }]
    // '[ 1 ]' is not what JSON.stringify writes: kept verbatim, still exact.
    expect(decodeEpisodeSteps(encodeEpisodeSteps({ initialSnapshotJson: null, steps }))).toEqual({ initialSnapshotJson: null, steps })
    expect(() => decodeEpisodeSteps(Buffer.from([9, 1, 2]))).toThrow(/unknown format 9/)
  })
})

describe('compact episode storage', () => {
  it('round-trips every environment exactly: runs.episode returns what the row format returned', async () => {
    const store = new RunStore(demo.db.raw)
    expect(environmentNames()).toEqual(expect.arrayContaining(['free-query', 'graph-menu', 'stateful', 'transcript']))
    for (const name of environmentNames()) {
      const config = evaluationConfig(name)
      const rowsRun = store.createRun({ kind: 'eval', name: `${name}-rows`, config, seed: 1, appVersion: 'test', corpusSignature: 'sig', jobId: null })
      const compactRun = store.createRun({ kind: 'eval', name: `${name}-compact`, config, seed: 1, appVersion: 'test', corpusSignature: 'sig', jobId: null })
      for (const t of await episodes(name, 3)) {
        expect(t.steps.length, name).toBeGreaterThan(0)
        const oldId = store.saveEpisode(rowsRun, null, t, 'rows')
        const newId = store.saveEpisode(compactRun, null, t)
        expect(count('select count(*) from episode_steps where episode_id = ?', newId), name).toBe(0)
        expect(count('select length(trajectory_blob) is not null from episodes where id = ?', newId), name).toBe(1)
        // The stored columns decode to the very strings of the row format.
        expect(store.episodeSteps(newId).map(({ episode_id: _e, ...s }) => s)).toEqual(store.episodeSteps(oldId).map(({ episode_id: _e, ...s }) => s))
        expect(store.episodeSteps(newId)).toEqual(episodeColumns(t).steps.map((s) => ({ episode_id: newId, ...s })))
        const before = (await getEpisode(demo.db.raw, oldId))!
        const after = (await getEpisode(demo.db.raw, newId))!
        expect({ ...after, id: 0, runId: 0, runName: '' }, name).toEqual({ ...before, id: 0, runId: 0, runName: '' })
        expect(after.steps.length).toBe(t.steps.length)
      }
      const [rows, compact] = store.storage().filter((s) => s.runId === rowsRun || s.runId === compactRun).sort((a, b) => a.runId - b.runId)
      expect(compact!.bytes, `${name}: compact ${compact!.bytes} B vs rows ${rows!.bytes} B`).toBeLessThan(rows!.bytes)
    }
  })

  it('prunes a run: steps gone, per-question results and comparisons kept, other runs untouched', async () => {
    const store = new RunStore(demo.db.raw)
    const config = evaluationConfig('graph-menu')
    const runs = [0, 1].map((r) => store.createRun({ kind: 'eval', name: `prune-${r}`, config, seed: r, appVersion: 'test', corpusSignature: 'sig', jobId: null }))
    const trajectories = await episodes('graph-menu', 3)
    const ids: number[][] = runs.map((runId, r) =>
      trajectories.map((t, i) => store.saveEpisode(runId, Number(demo.questions[i]!.id), { ...t, metrics: { score: r + i } }, r === 0 ? 'rows' : 'compact')),
    )
    const listedBefore = listEpisodes(demo.db.raw, runs[0]!, 0, 10)
    const comparisonBefore = compareRuns(demo.db.raw, runs[0]!, [runs[1]!], 'score')
    const sizeBefore = store.storage().find((s) => s.runId === runs[0])!

    expect(store.pruneRun(runs[0]!)).toBe(3)
    expect(store.pruneRun(runs[0]!)).toBe(0)
    const sizeAfter = store.storage().find((s) => s.runId === runs[0])!
    expect(sizeAfter).toMatchObject({ episodes: 3, pruned: 3 })
    expect(sizeAfter.bytes).toBeLessThan(sizeBefore.bytes)
    expect(count('select count(*) from episode_steps where episode_id in (select id from episodes where run_id = ?)', runs[0])).toBe(0)
    expect(listEpisodes(demo.db.raw, runs[0]!, 0, 10)).toEqual(listedBefore)
    expect(compareRuns(demo.db.raw, runs[0]!, [runs[1]!], 'score')).toEqual(comparisonBefore)
    expect((await getEpisode(demo.db.raw, ids[0]![0]!))!.steps).toEqual([])
    // The other run still opens whole.
    expect((await getEpisode(demo.db.raw, ids[1]![0]!))!.steps.length).toBe(trajectories[0]!.steps.length)
  })
})
