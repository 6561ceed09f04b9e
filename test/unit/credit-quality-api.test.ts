/**
 * training.creditQuality over the real dispatcher: a tiny real graph-menu run's stored rollouts are
 * replayed, re-credited by every scheme with each offline stand-in, and judged against gold; bad input
 * is refused with messages that name the problem.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dispatch } from '../../main/api/dispatch'
import { createHandlers } from '../../main/api/handlers'
import { runTraining } from '../../main/experiments/training'
import { defaultIngestOptions, runIngest } from '../../main/ingest/run'
import { LexicalAnswerer } from '../../main/policy/answerer/lexical-answerer'
import { creditNames } from '../../main/rl/credit'
import type { Envelope } from '../../preload/contract'
import { quiet } from '../helpers/corpus'
import { startBackend, type TestBackend } from '../helpers/services'

describe('training.creditQuality', () => {
  let backend: TestBackend
  let handlers: ReturnType<typeof createHandlers>
  let workspaceId: string
  let runId: number
  const failure = async (input: unknown) => {
    const env: Envelope<unknown> = await dispatch(handlers, 'training.creditQuality', input)
    expect(env.ok, JSON.stringify(input)).toBe(false)
    if (env.ok) throw new Error('unreachable')
    return { code: env.error.code, text: `${env.error.message} ${(env.error.issues ?? []).join('; ')}` }
  }

  beforeAll(async () => {
    backend = await startBackend()
    handlers = createHandlers(backend.services, { mode: 'cli' })
    workspaceId = (await backend.call('workspace.create', { name: 'credit quality' })).id
    const { raw } = await backend.services.workspaces.handle(workspaceId)
    await runIngest(raw, { kind: 'demo', seed: 2, size: 0.5 }, defaultIngestOptions(), quiet)
    const total = Number(raw.prepare('select count(*) from questions').pluck().get())
    ;({ runId } = await runTraining(
      raw,
      {
        environment: 'graph-menu', steps: 2, groupSize: 4, questionsPerStep: 4, evalInterval: 2, seed: 5, credit: { scheme: 'snc', lambda: 0.5 },
        train: { questionSetId: 1, offset: 0, limit: total - 4 }, heldOut: { questionSetId: 1, offset: total - 4, limit: 4 },
      },
      { answerer: new LexicalAnswerer(), appVersion: 'test', jobId: null, progress: () => {}, throwIfCancelled: () => {}, onStep: () => {} },
    ))
  }, 600_000)
  afterAll(() => backend?.close())

  it('re-credits the same stored rollouts with every scheme and reports each signal against gold', async () => {
    const lexical = await backend.call('training.creditQuality', { workspaceId, runId, fromStep: 0, toStep: 1 })
    expect(lexical).toMatchObject({ runId, fromStep: 0, toStep: 1, answerer: 'lexical stand-in', standIn: true, lambda: 0.5, questions: 8, rollouts: 32, skipped: 0 })
    expect(lexical.schemes).toEqual(creditNames())
    // Every scheme's applied advantage and credit; the parts a scheme fills (outcome fills none).
    expect(Object.keys(lexical.signals)).toEqual(expect.arrayContaining([...creditNames().flatMap((s) => [s, `${s}:credit`]), 'snc:frontier', 'snc:gain']))
    expect(Object.keys(lexical.signals).filter((k) => k.startsWith('outcome'))).toEqual(['outcome', 'outcome:credit'])
    // Outcome credit is 0 at every step: it ranks nothing, and every group is zero.
    expect(lexical.signals['outcome:credit']).toMatchObject({ auc: 0.5, constant: true, zeroGroupShare: 1, ci: { lower: 0.5, upper: 0.5 } })
    for (const [name, s] of Object.entries(lexical.signals)) {
      expect(s.positives + s.negatives, name).toBeGreaterThan(0)
      if (s.auc !== null) expect(s.auc, name).toBeGreaterThanOrEqual(0)
      if (s.ci && s.auc !== null) expect(s.ci.lower, name).toBeLessThanOrEqual(s.ci.upper)
      expect(Object.keys(s.byHops).length, name).toBeGreaterThan(0)
    }
    // Gold labels do not depend on the scorer: the same steps are ranked under either stand-in.
    const support = await backend.call('training.creditQuality', { workspaceId, runId, fromStep: 0, toStep: 1, scorer: 'support' })
    expect(support.answerer).toBe('support stand-in')
    expect([support.signals.snc!.positives, support.signals.snc!.negatives]).toEqual([lexical.signals.snc!.positives, lexical.signals.snc!.negatives])
    // Deterministic: the same request gives the same figures.
    expect(await backend.call('training.creditQuality', { workspaceId, runId, fromStep: 0, toStep: 1 })).toEqual(lexical)
  })

  it('refuses bad input with messages that name the problem', async () => {
    expect(await failure({ workspaceId, runId, fromStep: 1, toStep: 0 })).toMatchObject({ code: 'VALIDATION', text: expect.stringMatching(/toStep must not be before fromStep/) })
    expect(await failure({ workspaceId, runId, fromStep: 0, toStep: 10 })).toMatchObject({ code: 'VALIDATION', text: expect.stringMatching(/at most 10 steps/) })
    expect((await failure({ workspaceId, runId, scorer: 'gguf' })).code).toBe('VALIDATION')
    expect((await failure({ workspaceId, runId: 0 })).code).toBe('VALIDATION')
    expect(await failure({ workspaceId, runId: 999 })).toMatchObject({ code: 'NOT_FOUND', text: expect.stringMatching(/No training run #999/) })
    expect(await failure({ workspaceId, runId, fromStep: 7 })).toMatchObject({ code: 'VALIDATION', text: expect.stringMatching(/no stored rollouts in steps 7\.\.7/) })
  })
})
