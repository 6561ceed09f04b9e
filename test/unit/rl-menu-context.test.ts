/**
 * The menu-relative features of the head's sentence candidates, against a hand-built menu: top-ranked
 * flags, need gaps to the best item of the same type, the LOOKUP focus share, and on ANSWER the best need
 * still on offer (what lets the head learn when stopping pays). Also: the encoded rows carry them in the
 * layout's blocks, and the menu items themselves are left unchanged.
 */
import { describe, expect, it } from 'vitest'
import { MENU_LAYOUT, encode, layoutNames, squash, withMenuContext, type Candidate } from '../../main/policy/head-policy'

const item = (id: string, type: string, features: Record<string, number>): Candidate => ({ action: { kind: 'menu', id }, type, label: id, features })

const menu = (): Candidate[] => [
  item('S1', 'SELECT', { rank: 1, need: 0.5 }),
  item('S2', 'SELECT', { rank: 2, need: 0 }),
  item('S3', 'SELECT', { rank: 3, need: 0.25 }),
  item('L1', 'LOOKUP', { rank: 1, previewNeed: 0.2, newFocus: 2, newSentences: 4 }),
  item('L2', 'LOOKUP', { rank: 2, previewNeed: 0.6, newFocus: 0, newSentences: 0 }),
  item('W1', 'ANSWER_WITH', { rank: 1, need: 0.5 }),
  item('A', 'ANSWER', { committed: 2 }),
]

describe('menu-relative features of the head candidates', () => {
  it('marks the top-ranked item of each type, its need gap to the best and whether it covers any need', () => {
    const byId = Object.fromEntries(withMenuContext(menu()).map((c) => [(c.action as { id: string }).id, c.features]))
    expect([byId.S1!.top, byId.S2!.top, byId.S3!.top]).toEqual([1, 0, 0])
    expect([byId.S1!.covers, byId.S2!.covers, byId.S3!.covers]).toEqual([1, 0, 1])
    expect([byId.S1!.needGap, byId.S2!.needGap, byId.S3!.needGap]).toEqual([0, -0.5, -0.25])
    expect(byId.W1!.needGap).toBe(0)
    expect([byId.L1!.top, byId.L2!.top]).toEqual([1, 0])
    expect(byId.L1!.focusShare).toBe(0.5)
    expect(byId.L2!.focusShare).toBe(0)
    expect(byId.L1!.previewNeedGap).toBeCloseTo(-0.4, 12)
    expect(byId.L2!.previewNeedGap).toBe(0)
    expect(byId.A).toMatchObject({ committed: 2, bestNeed: 0.5, bestPreviewNeed: 0.6, covering: 2, lookups: 2 })
  })

  it('tells ANSWER that nothing is left when no SELECT covers unmet need and there is no LOOKUP', () => {
    const spent = withMenuContext([item('S1', 'SELECT', { rank: 1, need: 0 }), item('A', 'ANSWER', { committed: 1 })])
    expect(spent[1]!.features).toMatchObject({ bestNeed: 0, bestPreviewNeed: 0, covering: 0, lookups: 0 })
  })

  it('leaves the menu items untouched and puts the features into the layout blocks of the encoded rows', () => {
    const items = menu()
    const before = JSON.stringify(items)
    const out = withMenuContext(items)
    expect(JSON.stringify(items)).toBe(before)
    const names = layoutNames(MENU_LAYOUT)
    const state = { turnsLeft: 0.5, lastTurn: 0, committed: squash(2), hasCommitted: 1 }
    const rowA = encode(MENU_LAYOUT, 'ANSWER', out[6]!.features, state)
    expect(rowA[names.indexOf('ANSWER.bestNeed')]).toBeCloseTo(squash(0.5), 12)
    expect(rowA[names.indexOf('ANSWER.covering')]).toBeCloseTo(squash(2), 12)
    const rowS2 = encode(MENU_LAYOUT, 'SELECT', out[1]!.features, state)
    expect(rowS2[names.indexOf('SELECT.needGap')]).toBeCloseTo(squash(-0.5), 12)
    expect(rowS2[names.indexOf('SELECT.top')]).toBe(0)
    expect(rowS2[names.indexOf('SELECT.covers')]).toBe(0)
  })
})
