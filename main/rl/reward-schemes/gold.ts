/**
 * The gold a question set carries, at three levels: supporting sentences (HotpotQA), gold documents /
 * paragraphs (MuSiQue, or the documents of sentence gold), and answers. A reward term declares the level
 * it needs (terms.ts); a set's levels are those every question carries, since a term missing on some
 * questions trains those questions on a silent zero.
 */
export type GoldLevel = 'sentence' | 'paragraph' | 'answer'

export const GOLD_LEVEL_LABELS: Record<GoldLevel, string> = {
  sentence: 'sentence-level (supporting-fact) gold',
  paragraph: 'paragraph/document-level gold',
  answer: 'gold answers',
}

/** The gold fields of a question, as stored. */
export interface GoldFields {
  answers: readonly string[]
  supportingFacts: readonly unknown[]
  supportingDocs: readonly string[]
}

export interface GoldProfile {
  /** Levels every question carries. */
  levels: GoldLevel[]
  questions: number
  /** Questions carrying each level. */
  counts: Record<GoldLevel, number>
}

const has = (q: GoldFields, level: GoldLevel): boolean =>
  level === 'sentence' ? q.supportingFacts.length > 0 : level === 'paragraph' ? q.supportingDocs.length > 0 || q.supportingFacts.length > 0 : q.answers.some((a) => a.trim() !== '')

export function goldProfile(questions: readonly GoldFields[]): GoldProfile {
  const counts: Record<GoldLevel, number> = { sentence: 0, paragraph: 0, answer: 0 }
  for (const q of questions) for (const level of Object.keys(counts) as GoldLevel[]) if (has(q, level)) counts[level]++
  const levels = (Object.keys(counts) as GoldLevel[]).filter((l) => questions.length > 0 && counts[l] === questions.length)
  return { levels, questions: questions.length, counts }
}

/** The finest evidence level a profile has (sentence before paragraph), else answer, else null. */
export function evidenceLevel(profile: Pick<GoldProfile, 'levels'>): GoldLevel | null {
  return (['sentence', 'paragraph', 'answer'] as const).find((l) => profile.levels.includes(l)) ?? null
}
