/**
 * Menu-relative features of the sentence substrate's candidates. An item's own features say what it
 * covers; a linear or small MLP score of one row cannot see how it compares with the rest of the menu,
 * and the ANSWER row (features: the committed count) cannot see whether anything useful is left at all,
 * so stopping could only be learned as a fixed habit per turn. These features put that comparison into
 * each row: whether the item is its type's top-ranked one, how far its unmet-need coverage is from the
 * best on offer, and on ANSWER the best need any SELECT or LOOKUP preview still covers.
 */
import type { Candidate } from './candidate'

export const SENTENCE_CONTEXT_FEATURES = ['top', 'covers', 'needGap'] as const
export const LOOKUP_CONTEXT_FEATURES = ['top', 'focusShare', 'previewNeedGap'] as const
export const ANSWER_CONTEXT_FEATURES = ['bestNeed', 'bestPreviewNeed', 'covering', 'lookups'] as const

const maxOf = (xs: readonly number[]): number => (xs.length ? Math.max(...xs) : 0)
const f = (c: Candidate, name: string): number => c.features[name] ?? 0

/** The candidates with the menu-relative features added (new objects; the menu items' features are left alone). */
export function withMenuContext(candidates: readonly Candidate[]): Candidate[] {
  const byType = (type: string) => candidates.filter((c) => c.type === type)
  const bestNeed: Record<string, number> = {}
  for (const type of ['SELECT', 'ANSWER_WITH']) bestNeed[type] = maxOf(byType(type).map((c) => f(c, 'need')))
  const lookups = byType('LOOKUP')
  const bestPreviewNeed = maxOf(lookups.map((c) => f(c, 'previewNeed')))
  const selects = byType('SELECT')
  return candidates.map((c) => {
    const extra: Record<string, number> = {}
    if (c.type === 'SELECT' || c.type === 'ANSWER_WITH') {
      extra.top = f(c, 'rank') === 1 ? 1 : 0
      extra.covers = f(c, 'need') > 0 ? 1 : 0
      extra.needGap = f(c, 'need') - bestNeed[c.type]!
    } else if (c.type === 'LOOKUP') {
      extra.top = f(c, 'rank') === 1 ? 1 : 0
      extra.focusShare = f(c, 'newFocus') / Math.max(1, f(c, 'newSentences'))
      extra.previewNeedGap = f(c, 'previewNeed') - bestPreviewNeed
    } else if (c.type === 'ANSWER') {
      extra.bestNeed = bestNeed.SELECT!
      extra.bestPreviewNeed = bestPreviewNeed
      extra.covering = selects.filter((s) => f(s, 'need') > 0).length
      extra.lookups = lookups.length
    }
    return { ...c, features: { ...c.features, ...extra } }
  })
}
