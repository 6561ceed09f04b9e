import { describe, expect, it } from 'vitest'
import { LexicalAnswerer, SupportAnswerer, answerSupport } from '../../main/policy/answerer'

// The example, in words of the same shape: a comparison whose gold sentences give the years.
const Q = 'Which is the older city, Nufoullona or Brevath?'
const NAMES_IT = 'Nufoullona is a university city in the west of Teithora.'
const GOLD_A = 'Nufoullona was founded in 1203.'
const GOLD_B = 'Brevath was founded in 1450.'

describe('support stand-in', () => {
  it('does not pay a sentence that merely names the answer as much as the sentences that decide it', async () => {
    const lexical = new LexicalAnswerer()
    const support = new SupportAnswerer()
    // Lexical: naming the answer is full coverage, so the gold sentences after it gain nothing.
    expect(await lexical.score(Q, [NAMES_IT], 'Nufoullona')).toBeCloseTo(0, 12)
    expect((await lexical.score(Q, [NAMES_IT, GOLD_A, GOLD_B], 'Nufoullona')) - (await lexical.score(Q, [NAMES_IT], 'Nufoullona'))).toBeCloseTo(0, 12)
    // Support: a bare mention of one option is 0.25 / 2; both options' years are full support.
    expect(answerSupport(Q, [NAMES_IT], 'Nufoullona')).toBe(0.125)
    expect(answerSupport(Q, [GOLD_A], 'Nufoullona')).toBe(0.5)
    expect(answerSupport(Q, [GOLD_A, GOLD_B], 'Nufoullona')).toBe(1)
    expect(await support.score(Q, [NAMES_IT, GOLD_A, GOLD_B], 'Nufoullona')).toBeCloseTo(0, 12)
    expect(await support.score(Q, [], 'Nufoullona')).toBeCloseTo(Math.log(0.01), 12)
    expect(support.lexical).toBe(true)
    expect(support.name).toBe('support stand-in')
  })

  it('pays the answer in a sentence linked to the question (directly or through a bridge) above the answer anywhere', () => {
    const q = 'In which city was the author of Gray Harbour born?'
    const bridge = 'Gray Harbour is a novel by Ilse Marnow.'
    const answer = 'Ilse Marnow was born in Kestrel Bay.'
    const stray = 'Kestrel Bay has a harbour.'
    const linked = answerSupport(q, [bridge, answer], 'Kestrel Bay')
    expect(linked).toBeCloseTo(1, 12)
    // The answer alone, unlinked: only its tokens anywhere count (0.2).
    expect(answerSupport(q, [stray], 'Kestrel Bay')).toBeCloseTo(0.2, 12)
    // The bridge alone covers the question's entity (0.3): the right first hop beats a stray answer.
    expect(answerSupport(q, [bridge], 'Kestrel Bay')).toBeCloseTo(0.3, 12)
  })

  it('reads yes/no questions per entity and refuses an empty answer', () => {
    const q = 'Are Orlin and Vesk both rivers?'
    expect(answerSupport(q, ['Orlin is a river in the north.', 'Vesk is a river.'], 'yes')).toBe(1)
    expect(answerSupport(q, ['Orlin is a river in the north.'], 'yes')).toBe(0.5)
    expect(() => answerSupport(q, [], '  ')).toThrow(/empty answer/)
  })
})
