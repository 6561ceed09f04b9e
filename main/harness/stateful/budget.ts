/**
 * Context budget: an injectable token counter (cl100k_base by default, or the policy's own
 * tokenizer), the `[Context: used/limit]` marker with its warnings at 60 / 75 / 90 %, and a hard
 * token truncation that is the renderer's last resort.
 */
import { CHUNK_TOKENIZER, countTokens } from '../../corpus/tokens'

export interface TokenCounter {
  /** Recorded with every budget figure, e.g. "cl100k_base" or a GGUF model name. */
  name: string
  count(text: string): number
}

export const CL100K_COUNTER: TokenCounter = { name: CHUNK_TOKENIZER, count: countTokens }

/** Sections are joined with this in a rendering. */
export const SECTION_SEPARATOR = '\n\n'

/** Counts sections as they are joined (`SECTION_SEPARATOR` between them): the count of the joined text. */
export type JoinedCounter = (sections: readonly string[]) => number

/** Most section counts remembered per environment (a rendering has at most ten sections per degradation level). */
const MEMO = 512

/**
 * The count of sections joined by the separator. For cl100k it is the sum of each section-with-separator's
 * count (and the last section's): cl100k splits text into pre-tokens before merging, and a separator of
 * newlines always ends the pre-token it is in (after a letter or digit it is a pre-token of its own; after
 * punctuation or spaces it closes theirs) as long as the next section starts with neither whitespace nor
 * nothing (else the joined text is counted), so no token spans two sections. Those counts are remembered:
 * across degradation levels and turns most sections repeat, and counting was most of a Harness-1 step
 * (docs/snc-investigation.md). Any other tokenizer counts the joined text (its pre-tokenizer may differ).
 * test/unit/harness1-token-count.test.ts checks the sum against the joined count on real renderings.
 */
export function joinedCounter(counter: TokenCounter): JoinedCounter {
  if (counter !== CL100K_COUNTER) return (sections) => counter.count(sections.join(SECTION_SEPARATOR))
  const memo = new Map<string, number>()
  const count = (text: string): number => {
    let n = memo.get(text)
    if (n === undefined) {
      n = counter.count(text)
      if (memo.size >= MEMO) memo.delete(memo.keys().next().value!)
      memo.set(text, n)
    }
    return n
  }
  return (sections) => {
    // A section after the first that is empty or starts with whitespace would join the separator's pre-token.
    if (sections.some((s, i) => i > 0 && (s === '' || /^\s/u.test(s)))) return counter.count(sections.join(SECTION_SEPARATOR))
    return sections.reduce((sum, s, i) => sum + count(i < sections.length - 1 ? s + SECTION_SEPARATOR : s), 0)
  }
}

export interface BudgetWarning {
  /** The threshold crossed, in percent: 60, 75 or 90. */
  level: 60 | 75 | 90
  text: string
}

const WARNINGS: readonly BudgetWarning[] = [
  { level: 90, text: 'Warning: context over 90% full. Finish now: make sure the curated set holds the key documents, then end the search.' },
  { level: 75, text: 'Warning: context over 75% full. Stop broad searching; prune weak documents from the curated set.' },
  { level: 60, text: 'Note: context over 60% full. Prefer targeted searches from here on.' },
]

export function budgetWarning(used: number, limit: number): BudgetWarning | null {
  const percent = limit > 0 ? (used / limit) * 100 : 100
  return WARNINGS.find((w) => percent >= w.level) ?? null
}

export function budgetMarker(used: number, limit: number): string {
  const warning = budgetWarning(used, limit)
  return `[Context: ${used}/${limit}]${warning ? `\n${warning.text}` : ''}`
}

/**
 * The longest prefix of `text` whose token count is at most `limit`. Only prefixes actually counted
 * within the limit are ever returned, so the result fits whatever the tokenizer does at the cut.
 */
export function truncateToTokens(text: string, limit: number, counter: TokenCounter): string {
  if (limit <= 0) return ''
  if (counter.count(text) <= limit) return text
  let lo = 0
  let hi = text.length
  let best = ''
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    let cut = mid
    // Never split a surrogate pair.
    if (cut > 0 && cut < text.length && /[\uD800-\uDBFF]/.test(text[cut - 1]!)) cut--
    const prefix = text.slice(0, cut)
    if (counter.count(prefix) <= limit) {
      best = prefix.length > best.length ? prefix : best
      lo = mid + 1
    } else hi = mid - 1
  }
  return best
}
