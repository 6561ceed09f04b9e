import { describe, expect, it } from 'vitest'
import { HeldModels } from '../../main/jobs/held-models'
import { reportModelHold, setModelHoldReporter } from '../../main/jobs/model-hold-reporter'

describe('models held by jobs', () => {
  it('count each file per job, so a file held twice stays held until both let go', () => {
    const held = new HeldModels()
    expect(held.report('a', 'eval.run', '/m/policy.gguf', true)).toBe(true)
    expect(held.report('a', 'eval.run', '/m/policy.gguf', true)).toBe(false) // the answerer on the same file
    expect(held.report('b', 'corpus.embed', '/m/policy.gguf', true)).toBe(true)
    expect(held.holdersOf('/m/policy.gguf')).toEqual([{ jobId: 'a', kind: 'eval.run' }, { jobId: 'b', kind: 'corpus.embed' }])
    expect(held.report('a', 'eval.run', '/m/policy.gguf', false)).toBe(false)
    expect(held.pathsOf('a')).toEqual(['/m/policy.gguf'])
    expect(held.report('a', 'eval.run', '/m/policy.gguf', false)).toBe(true)
    expect(held.pathsOf('a')).toEqual([])
    expect(held.report('a', 'eval.run', '/m/policy.gguf', false)).toBe(false) // a stray release changes nothing
    expect(held.clear('b')).toBe(true)
    expect(held.clear('b')).toBe(false)
    expect(held.holdersOf('/m/policy.gguf')).toEqual([])
  })

  it('are reported by the thread that loads them, once per release, and not at all outside a job worker', () => {
    const reports: string[] = []
    expect(() => reportModelHold('m.gguf')()).not.toThrow()
    setModelHoldReporter((path, isHeld) => reports.push(`${isHeld ? 'hold' : 'release'} ${path}`))
    try {
      const release = reportModelHold('/models/../models/m.gguf')
      release()
      release()
    } finally {
      setModelHoldReporter(null)
    }
    expect(reports).toEqual(['hold /models/m.gguf', 'release /models/m.gguf'])
  })
})
