import { NAME_TYPES, VALUE_TYPES, type EntityType } from '../graph/nlp'

/** Every entity type, in a fixed order: packed mentions store a type as its index here. */
export const ENTITY_TYPES: readonly EntityType[] = [...NAME_TYPES, ...VALUE_TYPES]
