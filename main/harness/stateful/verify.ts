/**
 * Claim verification against stored full text (outer tier). An injected checker (an LLM judge, say)
 * is used when given; otherwise a lexical check, recorded as such, measures how much of the claim's
 * content vocabulary the passages contain. The lexical check cannot see negation or contradiction:
 * its verdicts are 'supported', 'partial' or 'unsupported', never 'contradicted'.
 */
import { contentTerms, oneLine } from './text'

export type Verdict = 'supported' | 'partial' | 'unsupported' | 'contradicted'

export interface VerifyPassage {
  docId: string
  title: string
  text: string
  sentences: string[]
}

export interface ClaimCheckResult {
  verdict: Verdict
  /** Confidence or support in [0, 1]. */
  score: number
  rationale?: string
  /** Sentences that bear on the claim, with their document ids. */
  evidence?: { docId: string; sentence: string }[]
}

export interface ClaimChecker {
  /** Recorded with every verification (e.g. a model file name). */
  name: string
  check(claim: string, passages: VerifyPassage[]): Promise<ClaimCheckResult>
}

export const LEXICAL_CHECKER_NAME = 'lexical (term overlap; blind to negation)'

export function lexicalCheck(claim: string, passages: readonly VerifyPassage[]): ClaimCheckResult {
  const terms = new Set(contentTerms(claim))
  if (terms.size === 0) return { verdict: 'unsupported', score: 0, rationale: 'The claim has no content words to check', evidence: [] }
  const found = new Set<string>()
  const scored: { docId: string; sentence: string; coverage: number }[] = []
  for (const p of passages) {
    for (const t of contentTerms(p.title)) if (terms.has(t)) found.add(t)
    const sentences = p.sentences.length ? p.sentences : [p.text]
    for (const s of sentences) {
      const st = new Set(contentTerms(s))
      let hit = 0
      for (const t of terms) if (st.has(t)) (hit++, found.add(t))
      if (hit > 0) scored.push({ docId: p.docId, sentence: oneLine(s), coverage: hit / terms.size })
    }
  }
  scored.sort((a, b) => b.coverage - a.coverage)
  const union = found.size / terms.size
  const best = scored[0]?.coverage ?? 0
  const score = Math.round((0.5 * union + 0.5 * best) * 1000) / 1000
  const verdict: Verdict = union >= 0.8 && best >= 0.5 ? 'supported' : union >= 0.5 ? 'partial' : 'unsupported'
  const missing = [...terms].filter((t) => !found.has(t))
  return {
    verdict,
    score,
    rationale: `${found.size}/${terms.size} claim terms found (best sentence ${Math.round(best * 100)}%)${missing.length ? `; missing: ${missing.slice(0, 8).join(', ')}` : ''}`,
    evidence: scored.slice(0, 2).map(({ docId, sentence }) => ({ docId, sentence })),
  }
}
