import { describe, expect, it } from 'vitest'
import { Job, JobKind, JobStartInput, jobKinds } from '../../preload/contract'
import { toJobDto } from '../../main/jobs/job-dto'

const row = (kind: string, result: unknown) => ({
  id: 'j', kind, workspace_id: 'w', status: 'done' as const, progress: 1, stage: 'done', message: '', error: null,
  params_json: '{}', result_json: result === null ? null : JSON.stringify(result), created_at: 'c', started_at: 's', finished_at: 'f', owner_pid: null,
})

describe('typed job results', () => {
  it('declares every kind once, with its parameters, its result and whether it takes a workspace', () => {
    expect(JobKind.options).toEqual(Object.keys(jobKinds))
    // job.start has one option per kind, with a workspaceId exactly where the kind runs against a workspace.
    const options = JobStartInput.options.map((o) => [o.shape.kind.value, 'workspaceId' in o.shape])
    expect(options).toEqual(JobKind.options.map((k) => [k, jobKinds[k].workspace]))
    expect(JobStartInput.parse({ kind: 'db.maintenance', workspaceId: 'w' })).toEqual({ kind: 'db.maintenance', workspaceId: 'w', params: { vacuum: true } })
  })

  it('types a job’s result by its kind, and reads a result stored in an older shape as null', () => {
    const done = toJobDto(row('eval.run', { runId: 3, episodes: 10, seconds: 1.5 }))
    expect(Job.parse(done)).toEqual(done)
    if (done.kind !== 'eval.run') throw new Error('kind lost')
    expect(done.result?.runId).toBe(3)
    expect(toJobDto(row('eval.run', { run: 3 })).result).toBeNull()
    expect(toJobDto(row('graph.export', null)).result).toBeNull()
    // A result of another kind's shape is not accepted by the contract.
    expect(Job.safeParse({ ...done, kind: 'db.maintenance' }).success).toBe(false)
  })
})
