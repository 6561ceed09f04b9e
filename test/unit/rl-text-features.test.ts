/**
 * Text features of the head's sentence candidates on a hand-built observation: the question's relation
 * words (outside its capitalised names), which sentences state them (and which still do once committed
 * text has met them), numbers, the gap to the best relation cover on offer and the names a sentence
 * brings in that the question does not mention.
 */
import { describe, expect, it } from 'vitest'
import type { SentenceEnvData } from '../../main/harness/sentence-substrate'
import type { MenuItem } from '../../main/harness/types'
import { candidateBuilder, MENU_LAYOUT, encode, layoutNames, squash } from '../../main/policy/head-policy'
import { questionRelation, withTextFeatures } from '../../main/policy/head-policy/text-features'

const sentence = (id: number, title: string, text: string) => ({ id, handle: id, documentId: id, title, ord: 0, text, step: 0, via: null })
const select = (id: number): MenuItem => ({ id: `S${id}`, type: 'SELECT', label: `S${id}`, target: { sentence: { id, handle: id, documentId: id, title: `T${id}`, ord: 0 }, adds: [] }, features: { rank: id } })

function observation(committed: ReturnType<typeof sentence>[] = []): SentenceEnvData {
  return {
    environment: 'graph-menu', question: 'Who was born earlier, Rombine Suwick or Lorn Havouskent?', turn: 0, turnLimit: 6, turnsLeft: 6, done: false, endReason: null,
    committed,
    visible: [
      sentence(1, 'Rombine Suwick', 'Rombine Suwick was a Goloran physicist.'),
      sentence(2, 'Rombine Suwick', 'Suwick was born on 30 October 1790 in Zibinach.'),
      sentence(3, 'Lorn Havouskent', 'He was born in Volano.'),
    ],
    entities: [
      { handle: 1, ids: [1], name: 'Rombine Suwick', type: 'PERSON', visited: false, step: 0, via: null },
      { handle: 2, ids: [2], name: 'Zibinach', type: 'PLACE', visited: false, step: 0, via: null },
      { handle: 3, ids: [3], name: 'Volano', type: 'PLACE', visited: false, step: 0, via: null },
    ],
    menu: [select(1), select(2), select(3), { id: 'A', type: 'ANSWER', label: 'ANSWER', features: { committed: 0 } }],
  } as unknown as SentenceEnvData
}

describe('text features of sentence candidates', () => {
  it('takes the relation from the words outside the capitalised names', () => {
    const { names, relation } = questionRelation('Who was born earlier, Rombine Suwick or Lorn Havouskent?')
    expect([...names].sort()).toEqual(['havouskent', 'lorn', 'rombine', 'suwick'])
    expect(relation).toEqual(['born', 'early'])
  })

  it('separates the sentence stating the relation from the one repeating the names', () => {
    const data = observation()
    const out = candidateBuilder('sentence-menu').candidates({ text: '', data }, { kind: 'menu', items: data.menu })
    const f = Object.fromEntries(out.map((c) => [(c.action as { id: string }).id, c.features]))
    expect(f.S1).toMatchObject({ number: 0, relation: 0, relationNeed: 0, relationGap: -0.5, newNames: 0 })
    expect(f.S2).toMatchObject({ number: 1, relation: 0.5, relationNeed: 0.5, relationGap: 0, newNames: 1 })
    expect(f.S3).toMatchObject({ number: 0, relation: 0.5, newNames: 1 })
    expect(f.A!.relation).toBeUndefined()
    expect(f.A!.bestRelationNeed).toBe(0.5)
    // The encoded SELECT row carries them in its block.
    const row = encode(MENU_LAYOUT, 'SELECT', f.S2!, { turnsLeft: 1, lastTurn: 0, committed: 0, hasCommitted: 0 })
    expect(row[layoutNames(MENU_LAYOUT).indexOf('SELECT.relationNeed')]).toBeCloseTo(squash(0.5), 12)
  })

  it('stops counting relation words that committed evidence already states', () => {
    const data = observation([sentence(9, 'Rombine Suwick', 'Rombine Suwick was born in a small town.')])
    const out = withTextFeatures(data, data.menu.filter((i) => i.type === 'SELECT').map((i) => ({ action: { kind: 'menu' as const, id: i.id }, type: i.type, label: i.label, features: { ...i.features } })))
    // "born" is met; only "early" is left, which no sentence states.
    expect(out.map((c) => c.features.relationNeed)).toEqual([0, 0, 0])
    expect(out.map((c) => c.features.relation)).toEqual([0, 0.5, 0.5])
  })
})
