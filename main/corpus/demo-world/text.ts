/** Small writing helpers shared by the article and question writers. */

/** "a chemist", "an engineer", "an aircraft maker". */
export function withArticle(phrase: string): string {
  return /^[aeiou]/i.test(phrase) ? `an ${phrase}` : `a ${phrase}`
}

/** "A", "A and B", "A, B and C". */
export function listing(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? ''
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`
}

/** Thousands separators, written out so the output never depends on the machine's locale data. */
export function formatCount(n: number): string {
  const digits = String(Math.round(Math.abs(n)))
  let out = ''
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ','
    out += digits[i]
  }
  return n < 0 ? `-${out}` : out
}

const SMALL_NUMBERS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'] as const

/** Small counts in words, as house style writes them ("seven children"); larger ones in digits. */
export const countWord = (n: number): string => SMALL_NUMBERS[n] ?? formatCount(n)

/** "a 1934 novel" but "an 1834 novel" and "an 11th-century": the article follows the spoken number. */
export const articleForNumber = (n: number): string => (/^(8|11|18)/.test(String(n)) && !/^1(1|8)\d$/.test(String(n)) ? 'an' : 'a')

export const possessive = (name: string): string => (name.endsWith('s') ? `${name}'` : `${name}'s`)

/** Plain code-unit order: unlike localeCompare it cannot vary with the machine's ICU data. */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

export const capitalise = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1)

const WORD_CHAR = /[\p{L}\p{N}]/u

/**
 * Whether `name` occurs in `text` as a whole phrase (not inside a longer word): "Tarsk" is not
 * mentioned by "Tarskholm". Coined words are unique across the world, so this is an exact test.
 */
export function mentions(text: string, name: string): boolean {
  if (!name) return false
  let from = 0
  for (;;) {
    const at = text.indexOf(name, from)
    if (at < 0) return false
    const before = at > 0 ? text.charAt(at - 1) : ''
    const after = text.charAt(at + name.length)
    if (!WORD_CHAR.test(before) && !WORD_CHAR.test(after)) return true
    from = at + 1
  }
}

export interface Pronouns {
  subject: string
  object: string
  possessive: string
}

export const PRONOUNS: Record<'female' | 'male', Pronouns> = {
  female: { subject: 'she', object: 'her', possessive: 'her' },
  male: { subject: 'he', object: 'him', possessive: 'his' },
}

/**
 * An article in the making. Each sentence may be tagged with the facts it states, so that questions
 * can point at the exact sentence index that supports them.
 */
export class Draft {
  readonly sentences: string[] = []
  readonly facts = new Map<string, number>()

  /** Adds one sentence: capitalised, single-spaced, ending in exactly one period. */
  add(sentence: string, ...facts: string[]): number {
    let s = sentence.replace(/\s+/g, ' ').trim()
    s = capitalise(s.replace(/[.\s]+$/, '')) + '.'
    const index = this.sentences.push(s) - 1
    for (const f of facts) if (!this.facts.has(f)) this.facts.set(f, index)
    return index
  }
}
