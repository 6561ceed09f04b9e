import type BetterSqlite3 from 'better-sqlite3'
import { nodeId } from './node-id'
import { idList, prepared } from './statements'
import type { GraphNode, NodeKind } from './types'
import { hasNext, hasPrevious } from './relations'
import { HUB_MIN_DEGREE, VALUE_ENTITY_TYPES } from './stats'

/*
 * Degree of a node in the whole graph, as SQL over the row aliased c (chunks), s (sentences) or
 * e (entities). Mentions count once per (sentence, entity) pair, as in the exported graph; an
 * entity counts its own neighbour links (what LOOKUP offers), not the links that point at it.
 */
export const PARAGRAPH_DEGREE = '(select count(*) from sentences x where x.chunk_id = c.id)'
export const SENTENCE_DEGREE = `(1 + (select count(distinct m.entity_id) from mentions m where m.sentence_id = s.id)
  + ${hasPrevious('s')}
  + ${hasNext('s')})`
export const ENTITY_DEGREE = `((select count(distinct m.sentence_id) from mentions m where m.entity_id = e.id)
  + (select count(*) from entity_links l where l.source_id = e.id))`

const LABEL_CHARS = 48
const TITLE_CHARS = 600

/** Cuts at a word boundary near `max` characters and marks the cut. */
export function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat.length <= max) return flat
  const cut = flat.slice(0, max - 1)
  const space = cut.lastIndexOf(' ')
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`
}

export function paragraphLabel(title: string, ord: number): string {
  return `${shorten(title, LABEL_CHARS - 6)} ¶${ord + 1}`
}

const VALUE_TYPES: ReadonlySet<string> = new Set(VALUE_ENTITY_TYPES)
/** A date or number mentioned so often that expanding it would flood the view (and it is never a LOOKUP target). */
export const isHub = (type: string, degree: number): boolean => VALUE_TYPES.has(type) && degree >= HUB_MIN_DEGREE

export function entityTitle(name: string, type: string, lookupOk: boolean): string {
  return `${name} (${type}${lookupOk ? '' : ', not a LOOKUP target'})`
}

interface ParagraphRow { id: number; ord: number; text: string; title: string; degree: number }
interface SentenceRow { id: number; text: string; degree: number }
interface EntityRow { id: number; name: string; type: string; lookup_ok: number; degree: number }

/** Graph nodes for row ids of one kind, keyed by row id; ids with no row are absent. */
export function loadNodes(raw: BetterSqlite3.Database, kind: NodeKind, rowIds: readonly number[]): Map<number, GraphNode> {
  const out = new Map<number, GraphNode>()
  if (rowIds.length === 0) return out
  const ids = idList(rowIds)
  if (kind === 'paragraph') {
    const rows = prepared<[string], ParagraphRow>(
      raw,
      `select c.id, c.ord, c.text, d.title, ${PARAGRAPH_DEGREE} as degree
       from chunks c join documents d on d.id = c.document_id where c.id in (select value from json_each(?))`,
    ).all(ids)
    for (const r of rows) {
      const label = paragraphLabel(r.title, r.ord)
      out.set(r.id, { id: nodeId('paragraph', r.id), kind, label, title: `${label}\n${shorten(r.text, TITLE_CHARS)}`, degree: r.degree })
    }
  } else if (kind === 'sentence') {
    const rows = prepared<[string], SentenceRow>(
      raw,
      `select s.id, s.text, ${SENTENCE_DEGREE} as degree from sentences s where s.id in (select value from json_each(?))`,
    ).all(ids)
    for (const r of rows) {
      out.set(r.id, { id: nodeId('sentence', r.id), kind, label: shorten(r.text, LABEL_CHARS), title: shorten(r.text, TITLE_CHARS), degree: r.degree })
    }
  } else {
    const rows = prepared<[string], EntityRow>(
      raw,
      `select e.id, e.name, e.type, e.lookup_ok, ${ENTITY_DEGREE} as degree from entities e where e.id in (select value from json_each(?))`,
    ).all(ids)
    for (const r of rows) {
      const lookupOk = r.lookup_ok === 1
      out.set(r.id, {
        id: nodeId('entity', r.id),
        kind,
        label: shorten(r.name, LABEL_CHARS),
        title: entityTitle(r.name, r.type, lookupOk),
        type: r.type,
        lookupOk,
        degree: r.degree,
        ...(isHub(r.type, r.degree) ? { hub: true } : {}),
      })
    }
  }
  return out
}
