/**
 * Sentence compression (Harness-1): a result is cut to its `keep` most query-relevant sentences, shown
 * in their original order so the passage still reads as text. Relevance is the number of distinct
 * query content terms a sentence contains, each weighted by how rare it is among the chunk's
 * sentences (a term in every sentence says nothing about which one matters); ties go to the earlier
 * sentence, which in encyclopedic text tends to name the subject.
 */
import { contentTerms, oneLine, termSet } from './text'

export interface Compressed {
  /** Indices (into the input sentences) that were kept, ascending. */
  kept: number[]
  text: string
}

export function compressSentences(sentences: readonly string[], query: string, keep: number): Compressed {
  if (sentences.length <= keep) return { kept: sentences.map((_, i) => i), text: joinSentences(sentences) }
  const queryTerms = new Set(contentTerms(query))
  const sets = sentences.map((s) => termSet(s))
  const df = new Map<string, number>()
  for (const set of sets) for (const t of set) if (queryTerms.has(t)) df.set(t, (df.get(t) ?? 0) + 1)
  const n = sentences.length
  const scored = sets.map((set, index) => {
    let score = 0
    for (const t of set) {
      const d = df.get(t)
      if (d) score += 1 + Math.log(n / d)
    }
    return { index, score }
  })
  scored.sort((a, b) => b.score - a.score || a.index - b.index)
  const kept = scored
    .slice(0, keep)
    .map((s) => s.index)
    .sort((a, b) => a - b)
  // An ellipsis marks each gap, so the reader knows text was dropped between two kept sentences.
  const parts: string[] = []
  kept.forEach((i, j) => {
    if (j > 0 && i !== kept[j - 1]! + 1) parts.push('…')
    parts.push(oneLine(sentences[i]!))
  })
  return { kept, text: parts.filter((s) => s !== '').join(' ') }
}

function joinSentences(sentences: readonly string[]): string {
  return sentences.map(oneLine).filter((s) => s !== '').join(' ')
}
