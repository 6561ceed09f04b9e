/**
 * Answer normalisation shared by every answer metric: the SQuAD rule that the HotpotQA and
 * 2WikiMultiHopQA evaluation scripts (and Graph-R1, HippoRAG, Search-R1) apply before comparing:
 * lower-case, delete ASCII punctuation, replace the articles a/an/the by a space, collapse whitespace.
 *
 * The reference implementations are Python, so the character classes below reproduce Python's
 * semantics rather than JavaScript's defaults; otherwise scores would drift from published numbers
 * on non-ASCII text:
 * - punctuation is Python's `string.punctuation` (ASCII only; "’" or "–" are kept);
 * - the article boundary is Python's Unicode `\b`, whose word characters are letters, numbers and
 *   underscore (JavaScript's `\b` treats "é" as a non-word character and would strip the "a" of "théa");
 * - whitespace is what Python's `str.split()` splits on (it includes U+001C..U+001F and U+0085 and
 *   excludes U+FEFF, unlike JavaScript's `\s`).
 */

const PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g
const ARTICLES = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu
const PY_WHITESPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g

/** Normalised form of an answer string (SQuAD/HotpotQA rule, see the file comment). */
export const normaliseAnswer = (text: string): string =>
  text
    .toLowerCase()
    .replace(PUNCTUATION, '')
    .replace(ARTICLES, ' ')
    .split(PY_WHITESPACE)
    .filter((token) => token !== '')
    .join(' ')

/** Tokens of the normalised answer (whitespace split), the unit of token F1. */
export const answerTokens = (text: string): string[] => {
  const normalised = normaliseAnswer(text)
  return normalised === '' ? [] : normalised.split(' ')
}
