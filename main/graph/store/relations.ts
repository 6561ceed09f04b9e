/**
 * The next-sentence relation, written once. Sentence ords keep the source's numbering (gold
 * [title, sentence id] facts refer to it), and empty source sentences are not stored, so "next" is the
 * following stored ord in the same document, not ord + 1.
 */
export const nextSentence = (s: string, n: string): string =>
  `${n}.document_id = ${s}.document_id and ${n}.ord = (select min(x.ord) from sentences x where x.document_id = ${s}.document_id and x.ord > ${s}.ord)`

export const previousSentence = (s: string, p: string): string =>
  `${p}.document_id = ${s}.document_id and ${p}.ord = (select max(x.ord) from sentences x where x.document_id = ${s}.document_id and x.ord < ${s}.ord)`

/** 1 when the sentence has a neighbour on that side, for degree counts. */
export const hasPrevious = (s: string): string => `exists(select 1 from sentences x where x.document_id = ${s}.document_id and x.ord < ${s}.ord)`
export const hasNext = (s: string): string => `exists(select 1 from sentences x where x.document_id = ${s}.document_id and x.ord > ${s}.ord)`
