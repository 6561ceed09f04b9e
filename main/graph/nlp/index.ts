/**
 * NLP for the paragraph-sentence-entity graph (Harness-G): sentences, typed entity mentions,
 * canonical keys, aliases and the LOOKUP-target filter. Pure functions, no Electron, no database.
 *
 * Design (measured on the HotpotQA sample, one core; `npx tsx bench/nlp.ts`):
 * - wink-nlp (eng-lite-web-model) does tokens, POS, sentence boundaries and value entities in one
 *   pass at several hundred thousand words/s;
 * - our own proper-noun chunker finds candidate names among capitalised tokens;
 * - names are typed by rules (honorifics, head words, demonyms, context cues) and a dictionary read
 *   once from compromise's lexicon. compromise's tagger is not run: alone it is about 10x slower
 *   than this whole pipeline, and as a fallback on the names left untyped it raised held-out
 *   typed-name F1 by 1.6 points while about 4 in 10 of its changes on HotpotQA were wrong
 *   ("Art" -> PERSON, "Arena México" -> GPE).
 *
 * API
 * - splitSentences(text: string): SentenceSpan[]
 *     `{ text, start, end }[]` with `text === source.slice(start, end)`; abbreviations (Dr., U.S.,
 *     e.g., Inc.), decimals and quotes stay inside sentences; blank lines, headings, list items and
 *     short title-like lines are boundaries.
 * - extractEntities(sentence: string): Mention[]
 * - extractEntitiesBatch(sentences: readonly string[]): Mention[][]
 *     one wink pass over all sentences (faster); pass one document's sentences per call so that a
 *     bare surname can borrow the type of the full name. Mention offsets are relative to its sentence.
 * - new EntityExtractor(): add(sentences) per batch, then finish(): Mention[][]
 *     extractEntitiesBatch for a long document fed in bounded batches (one wink pass per batch),
 *     with the document-level fixes over all of them; memory holds only compact candidates.
 * - boundedBlocks(text) / sentencesOfBlocks(text, ranges): splitSentences piece by piece; no
 *     sentence crosses a block and no block is longer than MAX_BLOCK_CHARS (cut at a sentence-like
 *     boundary), so a text split in runs of blocks gives exactly splitSentences(text).
 * - Every wink pass starts from the shipped lexicon (see wink.ts): a text's sentences and mentions
 *     depend on that text alone, never on what the process read before. Runs of more than
 *     MAX_WINK_RUN non-space characters (base64, minified code) are read as several tokens, since
 *     wink's tokenizer is quadratic in a token's length; offsets are unchanged.
 * - analyseText(text: string): AnalysedSentence[]
 *     splitSentences + extractEntitiesBatch in a single pass; mention offsets relative to the sentence.
 * - canonicalise(surface: string, type: EntityType): string
 * - buildAliasMap(mentions: readonly Mention[]): Map<string, string>   (canonical -> representative)
 * - resolveAlias(aliases: ReadonlyMap<string, string>, canonical: string): string
 * - isLookupTarget(mention: { surface; type; canonical? }): boolean
 * - lookupRejection(mention): string | null   (why a mention is not a target)
 * - isDemonym(surface: string): boolean
 */
export type { AnalysedSentence } from './extract'
export { analyseText, EntityExtractor, extractEntities, extractEntitiesBatch } from './extract'
export { boundedBlocks, MAX_BLOCK_CHARS, sentencesOfBlocks, splitSentences } from './sentences'
export { longRuns, MAX_WINK_RUN } from './wink'
export { canonicalise, foldText } from './canonical'
export { buildAliasMap, resolveAlias } from './aliases'
export { isLookupTarget, lookupRejection, lookupType } from './lookup-filter'
export { isDemonym } from './demonyms'
export { NAME_TYPES, VALUE_TYPES, isValueType } from './types'
export type { EntityType, Mention, NameType, SentenceSpan, ValueType } from './types'
