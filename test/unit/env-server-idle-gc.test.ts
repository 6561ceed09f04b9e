/**
 * Memory of the single-thread environment server (main/env-server/router.ts, idle-collector.ts), over a
 * real demo workspace: finished, deleted and failed episodes leave no per-episode state in the router or
 * the sessions, and the heap is collected once the last open episode closes, at most once per
 * `collectEvery` closed episodes and never while one is open. Sizes and calls, not memory figures.
 */
import { describe, expect, it } from 'vitest'
import { EpisodeRouter } from '../../main/env-server'
import { IdleCollector } from '../../main/env-server/idle-collector'
import type { ThreadLane } from '../../main/env-server/lanes'
import type { CreateEpisodeBody } from '../../main/env-server/wire'
import { useDemoWorkspace } from '../helpers/corpus'

type Json = Record<string, any>

const demo = useDemoWorkspace(5, 0.3)

/** A router (single-thread unless `workers`) whose collections in this thread are counted; `collected()` resolves at the next one. */
async function countingRouter(collectEvery: number, workers = 0) {
  let waiting: (() => void) | null = null
  let calls = 0
  const router = await EpisodeRouter.start({
    raw: demo.workspace.db.raw,
    appVersion: 'test',
    workers,
    inline: 0,
    collectEvery,
    collectGarbage: () => {
      calls++
      waiting?.()
      waiting = null
    },
  })
  return {
    router,
    lane: router.lanes[0] as ThreadLane,
    get calls() {
      return calls
    },
    collected: () => new Promise<void>((resolve) => (waiting = resolve)),
  }
}

/** One graph-menu episode to its end and finished: SELECT twice, then ANSWER. */
async function episode(router: EpisodeRouter, index: number): Promise<void> {
  const created = JSON.parse((await router.create({ environment: 'graph-menu', set: 1, index, seed: index } as CreateEpisodeBody)).text) as Json
  let state: Json = created
  for (let t = 0; !state.done; t++) {
    const menu = state.menu as Json[]
    const pick = (t >= 2 ? menu.find((m) => m.type === 'ANSWER') : menu.find((m) => m.type === 'SELECT')) ?? menu[0]!
    const out = JSON.parse((await router.step(created.episode_id, { menu_id: pick.id })).text) as Json
    state = { ...out, menu: out.menu ?? state.menu }
  }
  await router.finish(created.episode_id, {})
}

/** Lets the event loop take a turn, so a collection scheduled for it has run if it was going to. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

describe('single-thread server memory', () => {
  it('keeps no per-episode state once episodes are finished, deleted or refused, and collects once when the last one closes', async () => {
    const c = await countingRouter(4)
    try {
      const questions = demo.workspace.questions.length
      const collected = c.collected()
      // Eight at once: one idle moment when the last closes, one collection.
      await Promise.all(Array.from({ length: 8 }, (_, i) => episode(c.router, i % questions)))
      await collected
      expect(c.calls).toBe(1)
      // One deleted before its end, one refused (no such question): two closed, under the next four.
      const open = JSON.parse((await c.router.create({ environment: 'graph-menu', set: 1, index: 0, seed: 1 } as CreateEpisodeBody)).text) as Json
      await c.router.remove(open.episode_id)
      await expect(c.router.create({ environment: 'graph-menu', question_id: 999_999 } as CreateEpisodeBody)).rejects.toThrow(/No question/)
      expect(c.router.counters()).toMatchObject({ open: 0, inFlight: 0, created: 9, finished: 8, deleted: 1 })
      expect(c.lane.open).toBe(0)
      expect(c.lane.sessions.open).toBe(0)
      await turn()
      expect(c.calls).toBe(1)
    } finally {
      await c.router.close()
    }
  })

  it('collects at most once per collectEvery closed episodes, and never while an episode is open', async () => {
    const c = await countingRouter(3)
    try {
      // One at a time: idle after each, but a collection only after the third.
      await episode(c.router, 0)
      await episode(c.router, 1)
      await turn()
      expect(c.calls).toBe(0)
      const third = c.collected()
      await episode(c.router, 2)
      await third
      expect(c.calls).toBe(1)
      // An episode stays open while four others run: never idle, no collection until it closes.
      const long = JSON.parse((await c.router.create({ environment: 'graph-menu', set: 1, index: 3, seed: 3 } as CreateEpisodeBody)).text) as Json
      for (let i = 0; i < 4; i++) await episode(c.router, i)
      await turn()
      expect(c.calls).toBe(1)
      const last = c.collected()
      await c.router.remove(long.episode_id)
      await last
      expect(c.calls).toBe(2)
      expect(c.router.counters().open).toBe(0)
    } finally {
      await c.router.close()
    }
  })
})

describe('pooled server memory', () => {
  it('asks its worker threads to collect too, and they go on serving', async () => {
    const c = await countingRouter(2, 1)
    try {
      const collected = c.collected()
      await Promise.all([episode(c.router, 0), episode(c.router, 1)])
      await collected
      // The worker collected on its turn (a failure there would stop it): the next episodes run on it as before.
      await Promise.all([episode(c.router, 2), episode(c.router, 3)])
      expect(c.router.counters()).toMatchObject({ open: 0, finished: 4, workerRestarts: 0, createdInline: 0 })
      expect(c.router.lanes[0]!.open).toBe(0)
    } finally {
      await c.router.close()
    }
  })
})

describe('IdleCollector', () => {
  it('skips a collection when an episode opened before its turn came, and runs it at the next idle moment', async () => {
    let idle = true
    let calls = 0
    const collector = new IdleCollector(() => calls++, 1)
    collector.closed(() => idle)
    // A new episode arrives in the same turn as the close.
    idle = false
    await turn()
    expect(calls).toBe(0)
    idle = true
    collector.closed(() => idle)
    await turn()
    expect(calls).toBe(1)
    expect(collector.collections).toBe(1)
  })

  it('refuses a collectEvery that is not a positive integer', () => {
    expect(() => new IdleCollector(() => undefined, 0)).toThrow(/positive integer/)
    expect(() => new IdleCollector(() => undefined, 1.5)).toThrow(/positive integer/)
  })
})
