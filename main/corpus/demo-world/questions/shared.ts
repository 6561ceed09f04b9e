import type { Rng } from '../rng'
import type { Article } from '../writers/shared'
import type { Person, World } from '../world'

/** One supporting sentence, named by entity and fact before it is resolved to a sentence index. */
export interface Support {
  entityId: string
  /** Fact key the article writer tagged the sentence with ('founder', 'birthPlace', ...). */
  fact: string
  /** Text the sentence must contain: the bridge entity, the answer, or the compared value. */
  mentions: string
}

/** A question before it is checked and numbered. */
export interface Candidate {
  template: string
  type: 'bridge' | 'comparison'
  question: string
  answers: string[]
  support: Support[]
  /** Bridge questions: the entity that links the two hops; it must not appear in the question. */
  bridge?: string
  /** Entities the question names, for de-duplication. */
  about: string[]
}

export interface QuestionContext {
  world: World
  rng: Rng
  articles: ReadonlyMap<string, Article>
}

export type Template = (qc: QuestionContext) => Candidate | null

/** The person's name, plus the honorific form as an alias when other articles sometimes use it. */
export const personAnswers = (p: Person): string[] => (p.honorific ? [p.name, `${p.honorific} ${p.name}`] : [p.name])

/** A random element satisfying `test`, trying a bounded number of times; null when none is found. */
export function pickWhere<T>(rng: Rng, items: readonly T[], test: (x: T) => boolean, tries = 12): T | null {
  if (items.length === 0) return null
  for (let i = 0; i < tries; i++) {
    const x = rng.pick(items)
    if (test(x)) return x
  }
  return null
}
