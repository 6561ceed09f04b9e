import { describe, expect, it } from 'vitest'
import type { JobKind } from '../../preload/contract'
import { defaultJobLimit, jobLimitFromEnv, planQueue, type PlannedJob } from '../../main/jobs/queue-plan'

const job = (id: string, kind: JobKind, workspaceId: string | null = 'w', ours = true): PlannedJob => ({ id, kind, workspaceId, ours })
const ids = (jobs: PlannedJob[]): string[] => jobs.map((j) => j.id)

describe('the job queue plan', () => {
  it('starts independent jobs together up to the limit and numbers the rest', () => {
    const plan = planQueue([], [job('e', 'eval.run'), job('t', 'train.run'), job('i', 'corpus.ingest', 'other'), job('x', 'data.export')], 3)
    expect(ids(plan.start)).toEqual(['e', 't', 'i'])
    expect(plan.places.get('x')).toEqual({ position: 1, waitingFor: 'a free slot (3 of 3 running)' })
  })

  it('counts running jobs against the limit', () => {
    const plan = planQueue([job('r', 'eval.run', 'other')], [job('a', 'eval.run'), job('b', 'eval.run')], 2)
    expect(ids(plan.start)).toEqual(['a'])
    expect(plan.places.get('b')?.position).toBe(1)
  })

  it('starts a brief job beside a full limit, without taking a slot', () => {
    const plan = planQueue([job('t', 'train.run')], [job('q', 'questions.import'), job('e', 'eval.run')], 1)
    expect(ids(plan.start)).toEqual(['q'])
    expect(plan.places.get('e')).toEqual({ position: 1, waitingFor: 'a free slot (1 of 1 running)' })
  })

  it('runs a workspace-exclusive kind alone in its workspace, and jobs queued behind it wait for it', () => {
    const running = [job('e', 'eval.run')]
    const plan = planQueue(running, [job('m', 'db.maintenance'), job('t', 'train.run'), job('o', 'eval.run', 'other')], 8)
    // The maintenance waits for the evaluation; the training run queued after it does not overtake it; another workspace is free.
    expect(ids(plan.start)).toEqual(['o'])
    expect(plan.places.get('m')).toEqual({ position: 1, waitingFor: 'eval.run running in this workspace' })
    expect(plan.places.get('t')).toEqual({ position: 2, waitingFor: 'db.maintenance queued before it in this workspace' })
  })

  it('keeps two corpus writers of one workspace apart, but not of two workspaces', () => {
    const plan = planQueue([job('i1', 'corpus.ingest')], [job('i2', 'corpus.ingest'), job('emb', 'corpus.embed'), job('i3', 'corpus.ingest', 'other'), job('x', 'data.export')], 8)
    expect(ids(plan.start)).toEqual(['i3', 'x'])
    const writer = 'corpus.ingest running in this workspace: one corpus writer at a time, never while a run reads the corpus'
    expect(plan.places.get('i2')).toEqual({ position: 1, waitingFor: writer })
    expect(plan.places.get('emb')).toEqual({ position: 2, waitingFor: writer })
  })

  it('runs evaluations, training runs, ablations and findings beside each other but never beside a corpus writer of their workspace', () => {
    const reason = 'a run reads one corpus from start to end, so it waits while the corpus is being written'
    // Readers share the corpus; a writer queued behind them waits, and readers queued after the writer do not overtake it.
    const plan = planQueue([job('e1', 'eval.run')], [job('t', 'train.run'), job('i', 'corpus.ingest'), job('f', 'findings.run'), job('a', 'ablation.run', 'other'), job('x', 'data.export')], 8)
    expect(ids(plan.start)).toEqual(['t', 'a', 'x'])
    expect(plan.places.get('i')).toEqual({ position: 1, waitingFor: 'eval.run running in this workspace: one corpus writer at a time, never while a run reads the corpus' })
    expect(plan.places.get('f')).toEqual({ position: 2, waitingFor: `corpus.ingest queued before it in this workspace: ${reason}` })
    // An ingest running in another process holds back an evaluation here, and the reason names that process.
    const across = planQueue([{ ...job('i', 'corpus.ingest', 'w', true), elsewhere: 4242 }], [job('e', 'eval.run'), job('m', 'corpus.embed')], 8)
    expect(ids(across.start)).toEqual([])
    expect(across.places.get('e')).toEqual({ position: 1, waitingFor: `corpus.ingest running in this workspace (process 4242): ${reason}` })
  })

  it("leaves another live process's queued jobs to it, in their place, keeping their slot", () => {
    const plan = planQueue([], [job('theirs', 'eval.run', 'w', false), job('mine', 'eval.run')], 4)
    expect(ids(plan.start)).toEqual(['mine'])
    expect(plan.places.get('theirs')).toEqual({ position: 1, waitingFor: 'the process that queued it' })
    // With one slot, the other process's earlier job keeps it: this process's later job waits.
    const one = planQueue([], [job('theirs', 'eval.run', 'w', false), job('mine', 'eval.run', 'other')], 1)
    expect(ids(one.start)).toEqual([])
    expect(one.places.get('mine')).toEqual({ position: 2, waitingFor: 'a free slot (1 of 1 running)' })
  })

  it('defaults to the cores less one, at least one; HARNESS_LAB_JOBS must be a whole number', () => {
    expect(defaultJobLimit(16)).toBe(15)
    expect(defaultJobLimit(2)).toBe(1)
    expect(defaultJobLimit(1)).toBe(1)
    expect(jobLimitFromEnv(undefined)).toBeUndefined()
    expect(jobLimitFromEnv('3')).toBe(3)
    expect(() => jobLimitFromEnv('0')).toThrow(/HARNESS_LAB_JOBS must be a whole number/)
    expect(() => jobLimitFromEnv('two')).toThrow(/"two"/)
  })
})
