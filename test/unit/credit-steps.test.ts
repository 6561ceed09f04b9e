import { describe, expect, it } from 'vitest'
import { creditSteps } from '../../main/experiments/training'
import type { SentenceEnvData, Trajectory } from '../../main/harness'

type Item = { id: string; type: string }
const sentence = (id: number, handle: number, step: number) => ({ id, handle, documentId: 1, title: 'T', ord: id, text: `s${id}`, step, via: 'x' })
const entity = (handle: number, step: number, fromSentence?: number) => ({ handle, ids: [handle], name: `E${handle}`, type: 'PERSON', visited: false, step, via: 'x', ...(fromSentence !== undefined ? { fromSentence } : {}) })

/** A step as the one loop records it, with the structured observation credit reads (only the fields it reads). */
const step = (t: number, chosen: string, items: Item[], previews: Record<string, number[]>, data: Partial<SentenceEnvData>) => ({
  t,
  observationText: '',
  actions: { kind: 'menu' as const, items: items.map((i) => ({ ...i, label: i.id })) },
  previews: Object.fromEntries(Object.entries(previews).map(([id, ids]) => [id, { sentenceIds: ids }])),
  action: { kind: 'menu' as const, id: chosen },
  decision: {},
  info: { valid: true },
  snapshot: null,
  ms: 0,
  observation: { text: '', data: { committed: [], visible: [], entities: [], ...data } },
})

describe('creditSteps provenance', () => {
  it('traces a LOOKUP to the step that surfaced its entity and to the bridge SELECT that committed the sentence it came from', () => {
    // Reset shows sentence 1 (handle 1) and entity 1. Step 0 LOOKUPs entity 1, surfacing sentence 5 with entity 2 in it;
    // step 1 SELECTs sentence 5 (the bridge); step 2 LOOKUPs entity 2.
    const trajectory = {
      steps: [
        step(0, 'L1', [{ id: 'L1', type: 'LOOKUP' }, { id: 'S1', type: 'SELECT' }], { L1: [5, 6], S1: [1] }, { visible: [sentence(1, 1, 0)], entities: [entity(1, 0, 1)] }),
        step(1, 'S2', [{ id: 'S2', type: 'SELECT' }, { id: 'L2', type: 'LOOKUP' }], { S2: [5], L2: [8] }, { visible: [sentence(1, 1, 0), sentence(5, 2, 1), sentence(6, 3, 1)], entities: [entity(1, 0, 1), entity(2, 1, 5)] }),
        step(2, 'L2', [{ id: 'L2', type: 'LOOKUP' }, { id: 'A', type: 'ANSWER' }], { L2: [8] }, { committed: [sentence(5, 2, 1)], visible: [sentence(1, 1, 0), sentence(6, 3, 1)], entities: [entity(1, 0, 1), entity(2, 1, 5)] }),
      ],
    } as unknown as Trajectory
    const steps = creditSteps(trajectory)
    // The reset surfaced entity 1 and sentence 1: no producer.
    expect(steps[0]!.producers).toEqual([])
    // Sentence 5 surfaced at turn 1, by step 0.
    expect(steps[1]!.producers).toEqual([0])
    // Entity 2 surfaced by step 0 and came from sentence 5, which step 1 committed: both enabled the LOOKUP.
    expect([...steps[2]!.producers].sort()).toEqual([0, 1])
    expect(steps[2]!.committedBefore).toEqual([5])
  })

  it('adds no bridge when the entity came from a sentence nobody committed', () => {
    const trajectory = {
      steps: [
        step(0, 'L1', [{ id: 'L1', type: 'LOOKUP' }], { L1: [5] }, { visible: [sentence(1, 1, 0)], entities: [entity(1, 0, 1)] }),
        step(1, 'L2', [{ id: 'L2', type: 'LOOKUP' }], { L2: [8] }, { visible: [sentence(1, 1, 0), sentence(5, 2, 1)], entities: [entity(1, 0, 1), entity(2, 1, 5)] }),
      ],
    } as unknown as Trajectory
    expect(creditSteps(trajectory).map((s) => s.producers)).toEqual([[], [0]])
  })
})
