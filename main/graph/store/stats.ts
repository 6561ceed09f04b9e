import type BetterSqlite3 from 'better-sqlite3'
import { sql } from 'kysely'
import { workspaceQuery } from '../../db/query'
import { VALUE_TYPES } from '../nlp/types'
import { nextSentence } from './relations'

export interface GraphStats {
  documents: number
  /** Paragraph nodes. */
  chunks: number
  /** Sentence nodes. */
  sentences: number
  /** Sum of documents.token_count (the ingest tokenizer's count). */
  tokens: number
  entities: { total: number; lookupOk: number; byType: Record<string, number> }
  /** Mention rows; one sentence may mention an entity more than once. */
  mentions: number
  /** Graph edges by kind; `mention` counts distinct (sentence, entity) pairs. */
  edges: { mention: number; next: number; in: number; neighbour: number; total: number }
  /** paragraphs + sentences + entities. */
  nodes: number
}

const entityTypes = workspaceQuery((db) => db.selectFrom('entities').select((eb) => ['type', eb.fn.countAll<number>().as('n')]).groupBy('type').orderBy('type'))
const counts = workspaceQuery((db) =>
  db.selectNoFrom((eb) => [
    eb.selectFrom('documents').select(eb.fn.countAll<number>().as('n')).as('documents'),
    eb.selectFrom('chunks').select(eb.fn.countAll<number>().as('n')).as('chunks'),
    eb.selectFrom('sentences').select(eb.fn.countAll<number>().as('n')).as('sentences'),
    eb.selectFrom('documents').select(sql<number>`coalesce(sum(token_count), 0)`.as('n')).as('tokens'),
    eb.selectFrom('entities').select(eb.fn.countAll<number>().as('n')).as('entities'),
    eb.selectFrom('entities').select(eb.fn.countAll<number>().as('n')).where('lookup_ok', '=', sql.lit(1)).as('lookupOk'),
    eb.selectFrom('mentions').select(eb.fn.countAll<number>().as('n')).as('mentions'),
    eb.selectFrom(eb.selectFrom('mentions').select(['sentence_id', 'entity_id']).distinct().as('p')).select(eb.fn.countAll<number>().as('n')).as('mentionEdges'),
    eb.selectFrom('sentences as s').innerJoin('sentences as n', (join) => join.on(sql<boolean>`${sql.raw(nextSentence('s', 'n'))}`)).select(eb.fn.countAll<number>().as('n')).as('nextEdges'),
    eb.selectFrom('entity_links').select(eb.fn.countAll<number>().as('n')).as('links'),
  ]),
)

/** Sizes of the corpus and its graph, read in one snapshot. */
export function graphStats(raw: BetterSqlite3.Database): GraphStats {
  return raw.transaction((): GraphStats => {
    const byType: Record<string, number> = {}
    for (const r of entityTypes(raw).all()) byType[r.type] = r.n
    const c = counts(raw).get()!
    const n = (v: number | null): number => v ?? 0
    const [chunks, sentences, entities] = [n(c.chunks), n(c.sentences), n(c.entities)]
    const edges = { mention: n(c.mentionEdges), next: n(c.nextEdges), in: sentences, neighbour: n(c.links), total: 0 }
    edges.total = edges.mention + edges.next + edges.in + edges.neighbour
    return {
      documents: n(c.documents),
      chunks,
      sentences,
      tokens: n(c.tokens),
      entities: { total: entities, lookupOk: n(c.lookupOk), byType },
      mentions: n(c.mentions),
      edges,
      nodes: chunks + sentences + entities,
    }
  })()
}

/** Entity types whose entities are values (dates, numbers): never LOOKUP targets, hubs when frequent. */
export const VALUE_ENTITY_TYPES = VALUE_TYPES
/** A value entity mentioned in at least this many sentences is a hub: collapsed in the explorer. */
export const HUB_MIN_DEGREE = 25

export interface DegreeBucket {
  /** Degrees from `min` to `max` inclusive (powers of two: 1, 2-3, 4-7, ...). */
  min: number
  max: number
  entities: number
}

export interface GraphComponent {
  /** Paragraph, sentence and entity nodes in the component. */
  nodes: number
  documents: number
  entities: number
  /** Title of its first document, to recognise it by. */
  example: string
}

export interface GraphStructure {
  counts: GraphStats
  /** Entity degree (mentioned sentences + own neighbour links) in power-of-two buckets. */
  degrees: DegreeBucket[]
  maxDegree: number
  /** Value entities with the most mentioned sentences (the hubs the explorer collapses), most first. */
  hubs: { id: string; name: string; type: string; degree: number }[]
  /** The highest-degree entity that is not a value (never a hub): where the explorer opens; null without entities. */
  start: { id: string; name: string; type: string; degree: number } | null
  /**
   * Connected components, largest first (at most `top`), over every edge except those of value
   * entities: a number such as "5" would otherwise join unrelated documents into one component.
   */
  components: GraphComponent[]
  componentCount: number
}

const entityDegrees = workspaceQuery((db) =>
  db
    .selectFrom('entities as e')
    .select([
      'e.id',
      'e.name',
      'e.type',
      sql<number>`(select count(distinct m.sentence_id) from mentions m where m.entity_id = e.id)`.as('sentences'),
      sql<number>`(select count(*) from entity_links l where l.source_id = e.id)`.as('links'),
    ]),
)
const documentNodes = workspaceQuery((db) =>
  db
    .selectFrom('documents as d')
    .select(['d.id', 'd.title', sql<number>`(select count(*) from chunks c where c.document_id = d.id) + (select count(*) from sentences s where s.document_id = d.id)`.as('nodes')])
    .orderBy('d.id'),
)
const nonValueEntities = workspaceQuery((db) => db.selectFrom('entities').select('id').where('type', 'not in', VALUE_ENTITY_TYPES.map((t) => sql.lit(t))).orderBy('id'))
const documentEntityPairs = workspaceQuery((db) => db.selectFrom('mentions as m').innerJoin('sentences as s', 's.id', 'm.sentence_id').select(['s.document_id as d', 'm.entity_id as e']).distinct())
const entityLinks = workspaceQuery((db) => db.selectFrom('entity_links').select(['source_id as a', 'target_id as b']))

/** Sizes, degree distribution, hubs and largest components of the graph, read in one snapshot. */
export function graphStructure(raw: BetterSqlite3.Database, top = 10): GraphStructure {
  return raw.transaction((): GraphStructure => {
    const counts = graphStats(raw)
    const degreeRows = entityDegrees(raw).all()
    const buckets = new Map<number, number>()
    let maxDegree = 0
    for (const r of degreeRows) {
      const d = r.sentences + r.links
      maxDegree = Math.max(maxDegree, d)
      const b = d <= 0 ? 0 : Math.floor(Math.log2(d)) + 1
      buckets.set(b, (buckets.get(b) ?? 0) + 1)
    }
    const degrees = [...buckets.entries()].sort((a, b) => a[0] - b[0]).map(([b, n]) => (b === 0 ? { min: 0, max: 0, entities: n } : { min: 2 ** (b - 1), max: 2 ** b - 1, entities: n }))
    const valueTypes: ReadonlySet<string> = new Set(VALUE_ENTITY_TYPES)
    const hubs = degreeRows
      .filter((r) => valueTypes.has(r.type) && r.sentences + r.links >= HUB_MIN_DEGREE)
      .sort((a, b) => b.sentences + b.links - (a.sentences + a.links) || a.id - b.id)
      .slice(0, top)
      .map((r) => ({ id: `e:${r.id}`, name: r.name, type: r.type, degree: r.sentences + r.links }))
    const { components, componentCount } = componentsOf(raw, top)
    // Where the explorer opens before any search: the best-connected entity that is not a date or number.
    let start: (typeof degreeRows)[number] | undefined
    for (const r of degreeRows) {
      if (valueTypes.has(r.type)) continue
      if (!start || r.sentences + r.links > start.sentences + start.links || (r.sentences + r.links === start.sentences + start.links && r.id < start.id)) start = r
    }
    const startEntity = start ? { id: `e:${start.id}`, name: start.name, type: start.type, degree: start.sentences + start.links } : null
    return { counts, degrees, maxDegree, hubs, components, componentCount, start: startEntity }
  })()
}

/**
 * Components by union-find over documents and entities: a document's paragraphs and sentences are
 * joined by its sentence chain, so a document is one unit, joined to the entities it mentions and
 * entities to the entities they link to (value entities left out, see GraphStructure).
 */
function componentsOf(raw: BetterSqlite3.Database, top: number): { components: GraphComponent[]; componentCount: number } {
  const docs = documentNodes(raw).all()
  const entityIds = nonValueEntities(raw).values()
  const index = new Map<string, number>()
  docs.forEach((d, i) => index.set(`d${d.id}`, i))
  entityIds.forEach((id, i) => index.set(`e${id}`, docs.length + i))
  const parent = Int32Array.from({ length: docs.length + entityIds.length }, (_, i) => i)
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!
      x = parent[x]!
    }
    return x
  }
  const union = (a: number | undefined, b: number | undefined): void => {
    if (a === undefined || b === undefined) return
    const ra = find(a)
    const rb = find(b)
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb)
  }
  for (const r of documentEntityPairs(raw).iterate()) {
    union(index.get(`d${r.d}`), index.get(`e${r.e}`))
  }
  for (const r of entityLinks(raw).iterate()) {
    union(index.get(`e${r.a}`), index.get(`e${r.b}`))
  }
  const byRoot = new Map<number, GraphComponent>()
  const component = (root: number): GraphComponent => {
    let c = byRoot.get(root)
    if (!c) byRoot.set(root, (c = { nodes: 0, documents: 0, entities: 0, example: '' }))
    return c
  }
  docs.forEach((d, i) => {
    const c = component(find(i))
    c.nodes += d.nodes
    c.documents++
    if (!c.example) c.example = d.title
  })
  entityIds.forEach((_, i) => {
    const c = component(find(docs.length + i))
    c.nodes++
    c.entities++
  })
  const all = [...byRoot.values()].sort((a, b) => b.nodes - a.nodes || b.documents - a.documents || a.example.localeCompare(b.example))
  return { components: all.slice(0, top), componentCount: all.length }
}
