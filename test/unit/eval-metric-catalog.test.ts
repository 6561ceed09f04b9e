import { describe, expect, it } from 'vitest'
import { metricCatalog, metricInfo } from '../../main/experiments/metrics'
import { HARNESS1_TERMS } from '../../main/rl/rewards'

describe('metric catalogue', () => {
  it('describes every metric the app stores, labelled with its normalisation where it has one', () => {
    const names = new Set(metricCatalog().map((m) => m.name))
    for (const name of ['answer.em.official', 'answer.f1.graphr1', 'sp.recall', 'sp.f1', 'paragraph.recall', 'harness1.curatedFBeta', 'reward.total', 'turns', 'formatErrors']) {
      expect(names.has(name), name).toBe(true)
    }
    for (const term of HARNESS1_TERMS) expect(metricInfo(`reward.${term}`).group).not.toBe('Other')
    expect(metricInfo('answer.em.official').label).toMatch(/official/)
    expect(metricInfo('answer.f1.graphr1').label).toMatch(/Graph-R1/)
    expect(metricInfo('formatErrors').direction).toBe('lower')
    expect(metricInfo('sp.recall')).toMatchObject({ direction: 'higher', format: 'fraction' })
  })

  it('gives an unknown metric a readable fallback instead of failing', () => {
    const info = metricInfo('custom.someNewThing')
    expect(info.name).toBe('custom.someNewThing')
    expect(info.label.length).toBeGreaterThan(0)
    expect(info.group).toBe('Other')
    // Names asked for explicitly join the catalogue.
    expect(metricCatalog(['custom.someNewThing']).some((m) => m.name === 'custom.someNewThing')).toBe(true)
  })
})
