/** Shared shapes of the NLP layer under the paragraph-sentence-entity graph. */

/** A sentence span: `text === source.slice(start, end)`. */
export interface SentenceSpan {
  text: string
  start: number
  end: number
}

/**
 * Named types (OntoNotes names) plus NAME, a proper name nothing could type ("proper name
 * (untyped)"): an entity type, unlike the part-of-speech tag PROPN it used to be called by.
 */
export const NAME_TYPES = ['PERSON', 'ORG', 'GPE', 'LOC', 'FAC', 'NORP', 'EVENT', 'WORK_OF_ART', 'LAW', 'LANGUAGE', 'NAME'] as const
/** Value types: dates, times and numbers. None of them is ever a LOOKUP target. */
export const VALUE_TYPES = ['DATE', 'TIME', 'CARDINAL', 'ORDINAL', 'QUANTITY', 'PERCENT', 'MONEY'] as const

export type NameType = (typeof NAME_TYPES)[number]
export type ValueType = (typeof VALUE_TYPES)[number]
export type EntityType = NameType | ValueType

/** One entity mention; `start`/`end` are offsets into the string it was extracted from. */
export interface Mention {
  surface: string
  start: number
  end: number
  type: EntityType
  canonical: string
}

const valueTypes: ReadonlySet<string> = new Set(VALUE_TYPES)
export function isValueType(type: EntityType): type is ValueType {
  return valueTypes.has(type)
}
