/** A question built from the corpus, before it is stored: its gold sentences and what each must contain. */
export interface GoldSentenceRef {
  sentenceId: number
  documentId: number
  title: string
  externalId: string
  ord: number
  /** Surfaces the question needs from this sentence (the bridge entity, the answer, the compared value). */
  contains: string[]
}

export interface GeneratedQuestion {
  externalId: string
  /** 'bridge' | 'comparison' (the stored type). */
  kind: 'bridge' | 'comparison'
  /** The template: bridge, comparison-choice, comparison-years, comparison-amount. */
  form: string
  question: string
  answers: string[]
  gold: GoldSentenceRef[]
  /** Provenance in words: the entities and facts it was built from. */
  detail: string
}

/** Masks [start, end) spans of a sentence (non-overlapping, any order) with their replacements. */
export function mask(text: string, spans: readonly { start: number; end: number; with: string }[]): string {
  let out = ''
  let at = 0
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    if (s.start < at) continue
    out += text.slice(at, s.start) + s.with
    at = s.end
  }
  return (out + text.slice(at)).replace(/\s+/g, ' ').trim()
}
