import type { Rng } from './rng'
import {
  BLOCKED_FRAGMENTS,
  CODAS,
  GIVEN_FEMALE_ENDINGS,
  INNER_CODAS,
  GIVEN_MALE_ENDINGS,
  ONSETS,
  VOWELS,
} from './vocabulary'

const VOWEL_START = /^[aeiouy]/
const VOWEL_END = /[aeiouy]+$/
const SIMPLE_ONSETS = ONSETS.filter((o) => o.length === 1 && o !== 'w' && o !== 'j')

const capitalise = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1)

/**
 * Coins pronounceable, never-repeated words. Every coined word is unique across the whole world (a
 * surname is never also a city or the root of a company name), so a name in a question can only
 * mean one thing and whole-word matching is enough to tell whether an entity is mentioned.
 */
export class NameForge {
  private readonly used = new Set<string>()
  readonly femaleGiven: readonly string[]
  readonly maleGiven: readonly string[]

  constructor(private readonly rng: Rng) {
    // Given names repeat between people, as they do in life, so they come from a fixed pool per world;
    // they are reserved so that no surname or place can coincide with one.
    this.femaleGiven = this.pool(GIVEN_FEMALE_ENDINGS, 140)
    this.maleGiven = this.pool(GIVEN_MALE_ENDINGS, 140)
  }

  /**
   * A fresh capitalised word: a stem of one syllable (usually) or two, plus one of `endings`. Short
   * names read better; the longer ones only grow common once a large world has used up the short ones.
   */
  coin(endings: readonly string[]): string {
    for (let attempt = 0; ; attempt++) {
      const extra = Math.floor(attempt / 30)
      const syllables = (this.rng.chance(0.6) ? 1 : 2) + extra
      const word = this.assemble(syllables, this.rng.pick(endings), 10 + extra * 2)
      if (this.reserve(word)) return capitalise(word)
    }
  }

  /** Registers a whole title or word; false when it is already taken (case-insensitive). */
  reserve(name: string): boolean {
    const key = name.toLowerCase()
    if (this.used.has(key)) return false
    this.used.add(key)
    return true
  }

  private pool(endings: readonly string[], size: number): string[] {
    const out: string[] = []
    while (out.length < size) {
      const word = this.assemble(this.rng.chance(0.7) ? 1 : 2, this.rng.pick(endings), 8)
      if (this.reserve(word)) out.push(capitalise(word))
    }
    return out
  }

  private assemble(syllables: number, ending: string, maxLength: number): string {
    for (;;) {
      let stem = ''
      let closed = false
      for (let i = 0; i < syllables; i++) {
        // After a closed syllable only a single consonant may follow, which avoids clusters like "rkstr".
        const onset = i === 0 ? this.rng.pick(ONSETS) : closed ? this.rng.pick(SIMPLE_ONSETS) : this.rng.pick(ONSETS)
        const last = i === syllables - 1
        const coda = !last ? this.rng.pick(INNER_CODAS) : VOWEL_START.test(ending) ? this.rng.pick(CODAS) : ''
        stem += onset + this.rng.pick(VOWELS) + coda
        closed = coda !== ''
      }
      // Two vowel runs meeting at the join read badly (Quessaia): the stem gives way to the ending.
      if (VOWEL_START.test(ending)) stem = stem.replace(VOWEL_END, '')
      const word = stem + ending
      if (word.length < 4 || word.length > maxLength) continue
      if (BLOCKED_FRAGMENTS.some((f) => word.includes(f))) continue
      return word
    }
  }
}
