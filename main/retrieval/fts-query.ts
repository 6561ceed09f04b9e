import { STOPWORDS } from './stopwords'

/** Cap on OR-ed terms: a pasted paragraph should not become a thousand-term posting-list union. */
export const MAX_QUERY_TERMS = 32

// Runs of letters, digits and combining marks: close to what FTS5's unicode61 tokenizer keeps, so
// every FTS5 operator character (" * : ^ ( ) + - { } ,) falls between terms and never reaches MATCH.
const TERM = /[\p{L}\p{N}\p{M}]+/gu
// Upper-case words that FTS5 would parse as operators if they were left unquoted.
const OPERATORS = new Set(['AND', 'OR', 'NOT', 'NEAR'])

export interface MatchQuery {
  /** FTS5 MATCH expression, or null when nothing searchable is left (the search returns no hits). */
  expression: string | null
  terms: string[]
}

export interface MatchQueryOptions {
  /** Drop stopwords (default true). If every term is a stopword they are kept, so "The Who" still searches. */
  dropStopwords?: boolean
  maxTerms?: number
}

/**
 * Turns free text into a safe FTS5 expression: each term is double-quoted (so it is a plain string,
 * tokenised and stemmed by the table's tokenizer) and the terms are OR-ed, leaving the ranking to BM25.
 */
export function buildMatchQuery(query: string, options: MatchQueryOptions = {}): MatchQuery {
  const raw = (query.normalize('NFC').match(TERM) ?? []).filter((t) => !OPERATORS.has(t))
  const seen = new Set<string>()
  const all: string[] = []
  for (const token of raw) {
    const term = token.toLowerCase()
    if (seen.has(term)) continue
    seen.add(term)
    all.push(term)
  }
  const content = options.dropStopwords === false ? all : all.filter((t) => !STOPWORDS.has(t))
  const terms = (content.length > 0 ? content : all).slice(0, options.maxTerms ?? MAX_QUERY_TERMS)
  if (terms.length === 0) return { expression: null, terms }
  return { expression: terms.map((t) => `"${t}"`).join(' OR '), terms }
}
