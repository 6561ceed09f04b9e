import { renameSync, rmSync } from 'node:fs'
import type BetterSqlite3 from 'better-sqlite3'
import { neighbourhood } from './neighbourhood'
import { parseNodeId } from './node-id'
import { paragraphLabel, shorten } from './nodes'
import { idList } from './statements'
import type { NodeKind, WorkHooks } from './types'
import { BufferedFileWriter, xmlEscape } from './xml'
import { nextSentence } from './relations'

export interface GraphMLOptions extends WorkHooks {
  /** Export only this node's neighbourhood instead of the whole graph. */
  center?: string
  depth?: 1 | 2
  /** Node cap of a neighbourhood export (default 1000). */
  limit?: number
  /** Write sentence and paragraph text (default true); without it the file holds labels only. */
  includeText?: boolean
}

export interface GraphMLResult {
  file: string
  nodes: number
  edges: number
  bytes: number
  ms: number
  /** Neighbourhood exports: the cap left nodes out. */
  truncated: boolean
}

const HEADER = `<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">
  <key id="kind" for="node" attr.name="kind" attr.type="string"/>
  <key id="label" for="node" attr.name="label" attr.type="string"/>
  <key id="type" for="node" attr.name="type" attr.type="string"/>
  <key id="lookup_ok" for="node" attr.name="lookup_ok" attr.type="boolean"/>
  <key id="document" for="node" attr.name="document" attr.type="string"/>
  <key id="text" for="node" attr.name="text" attr.type="string"/>
  <key id="ekind" for="edge" attr.name="kind" attr.type="string"/>
  <key id="score" for="edge" attr.name="score" attr.type="double"/>
  <key id="method" for="edge" attr.name="method" attr.type="string"/>
  <graph id="harness-g" edgedefault="directed">
`
const FOOTER = '  </graph>\n</graphml>\n'
const REPORT_EVERY = 10_000

/** Restricts a query to row sets (a neighbourhood) or lets every row through (the whole graph). */
interface Scope {
  paragraph: string
  sentence: string
  entity: string
}

const data = (key: string, value: string): string => `<data key="${key}">${xmlEscape(value)}</data>`

/**
 * Writes the graph as GraphML (Gephi, yEd, networkx, igraph read it). Rows stream from SQLite
 * statements straight into a bounded write buffer, inside one read transaction so the file is a
 * consistent snapshot. The file appears only when complete (written beside it, then renamed).
 * Synchronous: run it off the UI thread (a job worker) for large graphs.
 */
export function exportGraphML(raw: BetterSqlite3.Database, file: string, options: GraphMLOptions = {}): GraphMLResult {
  const started = performance.now()
  const partial = `${file}.partial`
  const out = new BufferedFileWriter(partial)
  let nodes = 0
  let edges = 0
  let truncated = false
  try {
    raw.transaction(() => {
      let scope: Scope | null = null
      if (options.center !== undefined) {
        const sub = neighbourhood(raw, options.center, { depth: options.depth ?? 1, limit: options.limit ?? 1000 })
        truncated = sub.truncated
        const picked: Record<NodeKind, number[]> = { paragraph: [], sentence: [], entity: [] }
        for (const n of sub.nodes) picked[n.kind].push(parseNodeId(n.id).rowId)
        scope = { paragraph: idList(picked.paragraph), sentence: idList(picked.sentence), entity: idList(picked.entity) }
      }
      const total = scope ? 0 : estimateTotal(raw)
      const tick = (): void => {
        const done = nodes + edges
        if (done % REPORT_EVERY === 0) {
          options.checkpoint?.()
          options.onProgress?.(done, total, 'export')
        }
      }
      options.checkpoint?.()
      out.write(HEADER)
      const includeText = options.includeText ?? true
      for (const r of rows(raw, 'select c.id, c.ord, c.text, d.title from chunks c join documents d on d.id = c.document_id', 'c.id', [['c.id', scope?.paragraph]])) {
        const label = paragraphLabel(r.title as string, r.ord as number)
        out.write(`    <node id="p:${r.id}">${data('kind', 'paragraph')}${data('label', label)}${data('document', r.title as string)}${includeText ? data('text', r.text as string) : ''}</node>\n`)
        nodes++
        tick()
      }
      for (const r of rows(raw, 'select s.id, s.text, d.title from sentences s join documents d on d.id = s.document_id', 's.id', [['s.id', scope?.sentence]])) {
        const text = r.text as string
        out.write(`    <node id="s:${r.id}">${data('kind', 'sentence')}${data('label', shorten(text, 48))}${data('document', r.title as string)}${includeText ? data('text', text) : ''}</node>\n`)
        nodes++
        tick()
      }
      for (const r of rows(raw, 'select e.id, e.name, e.type, e.lookup_ok from entities e', 'e.id', [['e.id', scope?.entity]])) {
        out.write(`    <node id="e:${r.id}">${data('kind', 'entity')}${data('label', r.name as string)}${data('type', r.type as string)}${data('lookup_ok', r.lookup_ok === 1 ? 'true' : 'false')}</node>\n`)
        nodes++
        tick()
      }
      const edge = (source: string, target: string, kind: string, extra = ''): void => {
        out.write(`    <edge source="${source}" target="${target}">${data('ekind', kind)}${extra}</edge>\n`)
        edges++
        tick()
      }
      for (const r of rows(raw, 'select distinct m.sentence_id as a, m.entity_id as b from mentions m', 'm.sentence_id, m.entity_id', [['m.sentence_id', scope?.sentence], ['+m.entity_id', scope?.entity]])) {
        edge(`s:${r.a}`, `e:${r.b}`, 'mention')
      }
      for (const r of rows(raw, `select s.id as a, n.id as b from sentences s join sentences n on ${nextSentence('s', 'n')}`, 's.id', [['s.id', scope?.sentence], ['+n.id', scope?.sentence]])) {
        edge(`s:${r.a}`, `s:${r.b}`, 'next')
      }
      for (const r of rows(raw, 'select s.id as a, s.chunk_id as b from sentences s', 's.id', [['s.id', scope?.sentence], ['s.chunk_id', scope?.paragraph]])) {
        edge(`s:${r.a}`, `p:${r.b}`, 'in')
      }
      for (const r of rows(raw, 'select l.source_id as a, l.target_id as b, l.score, l.method from entity_links l', 'l.source_id, l.target_id', [['l.source_id', scope?.entity], ['+l.target_id', scope?.entity]])) {
        edge(`e:${r.a}`, `e:${r.b}`, 'neighbour', `${data('score', String(r.score))}${data('method', r.method as string)}`)
      }
      out.write(FOOTER)
    })()
    out.close()
    renameSync(partial, file)
  } catch (err) {
    try {
      out.close()
    } catch {
      // The original failure is the one worth reporting.
    }
    rmSync(partial, { force: true })
    throw err
  }
  options.onProgress?.(nodes + edges, nodes + edges, 'export')
  return { file, nodes, edges, bytes: out.bytes, ms: performance.now() - started, truncated }
}

/**
 * Iterates `select ... [where column in list ...] order by order`; a filter without a list lets
 * every row through. A column written `+x.id` filters without steering the index choice (see edges.ts).
 */
function rows(
  raw: BetterSqlite3.Database,
  select: string,
  order: string,
  filters: [column: string, list: string | undefined][],
): IterableIterator<Record<string, unknown>> {
  const scoped = filters.filter((f): f is [string, string] => f[1] !== undefined)
  const where = scoped.length ? ` where ${scoped.map(([column]) => `${column} in (select value from json_each(?))`).join(' and ')}` : ''
  return raw.prepare<string[], Record<string, unknown>>(`${select}${where} order by ${order}`).iterate(...scoped.map(([, list]) => list))
}

/** Node and edge rows to come, for progress; cheap counts, not the exact distinct mention pairs. */
function estimateTotal(raw: BetterSqlite3.Database): number {
  const n = (sql: string): number => raw.prepare<[], number>(sql).pluck().get() ?? 0
  return (
    n('select count(*) from chunks') +
    2 * n('select count(*) from sentences') +
    n('select count(*) from entities') +
    n('select count(*) from mentions') +
    n('select count(*) from entity_links')
  )
}
