import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type BetterSqlite3 from 'better-sqlite3'
import { DOMParser } from 'linkedom'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { workspaceMigrations } from '../../main/db/migrations'
import { openDatabase, type OpenedDatabase } from '../../main/db/open'
import type { WorkspaceDatabase } from '../../main/db/schema'
import { exportGraphML, GraphError, graphStats, neighbourhood, searchNodes, type Subgraph } from '../../main/graph/store'
import { tempDir } from '../helpers/services'

// Entities of the fixture: key -> [name, type, lookup_ok].
const ENTITIES: Record<string, [string, string, 0 | 1]> = {
  tower: ['Eiffel Tower', 'FAC', 1],
  paris: ['Paris', 'GPE', 1],
  gustave: ['Gustave Eiffel', 'PERSON', 1],
  y1887: ['1887', 'DATE', 0],
  french: ['French', 'NORP', 0],
  liberty: ['Statue of Liberty', 'FAC', 1],
  france: ['France', 'GPE', 1],
  zurich: ['Zürich', 'GPE', 1],
  att: ['AT&T <Labs> "Bell"', 'ORG', 1],
  lonely: ['Lonely Entity', 'ORG', 1],
}

// Documents as chunks of sentences; a mention is every occurrence of an entity's name.
const DOCUMENTS: [string, string[][]][] = [
  ['Eiffel Tower', [['The Eiffel Tower is in Paris.', 'Gustave Eiffel built it in 1887.', 'French engineers worked on it.'], ['Paris is proud of the Eiffel Tower.', 'Nothing else to say.']]],
  ['Gustave Eiffel', [['Gustave Eiffel was a French engineer.', 'Gustave Eiffel also worked on the Statue of Liberty.']]],
  ['France & "Friends" <b>', [['France has Paris as capital.', 'Zürich is not in France, said AT&T <Labs> "Bell".', 'Paris loves Paris.\u0001']]],
]

const LINKS: [string, string, number][] = [
  ['tower', 'liberty', 0.85],
  ['liberty', 'tower', 0.85],
  ['paris', 'france', 0.82],
  ['gustave', 'tower', 0.81],
]

/** What ingest stores as the canonical key here: case and accents folded. */
const canonical = (name: string): string => name.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase()

interface Fixture {
  entity: Record<string, number>
  /** Sentence ids by text. */
  sentence: Record<string, number>
  chunks: number[]
}

function buildFixture(raw: BetterSqlite3.Database): Fixture {
  const fx: Fixture = { entity: {}, sentence: {}, chunks: [] }
  raw.transaction(() => {
    const fileId = Number(
      raw.prepare("insert into source_files (path, format, size_bytes, sha256, status, ingested_at) values ('fixture.json', 'json', 0, '', 'ok', '')").run().lastInsertRowid,
    )
    for (const [key, [name, type, ok]] of Object.entries(ENTITIES)) {
      fx.entity[key] = Number(raw.prepare('insert into entities (canonical, type, name, lookup_ok) values (?, ?, ?, ?)').run(canonical(name), type, name, ok).lastInsertRowid)
    }
    for (const [title, chunks] of DOCUMENTS) {
      const sentences = chunks.flat()
      const text = sentences.join(' ')
      const docId = Number(
        raw.prepare('insert into documents (file_id, external_id, title, text, token_count) values (?, ?, ?, ?, ?)').run(fileId, title, title, text, text.split(' ').length).lastInsertRowid,
      )
      let ord = 0
      let pos = 0
      for (const [c, chunk] of chunks.entries()) {
        const chunkText = chunk.join(' ')
        const chunkId = Number(
          raw
            .prepare('insert into chunks (document_id, ord, text, start_char, end_char, token_count, first_sentence, last_sentence) values (?, ?, ?, ?, ?, ?, ?, ?)')
            .run(docId, c, chunkText, pos, pos + chunkText.length, chunk.length * 5, ord, ord + chunk.length - 1).lastInsertRowid,
        )
        fx.chunks.push(chunkId)
        for (const s of chunk) {
          const sid = Number(
            raw.prepare('insert into sentences (document_id, chunk_id, ord, text, start_char, end_char) values (?, ?, ?, ?, ?, ?)').run(docId, chunkId, ord++, s, pos, pos + s.length).lastInsertRowid,
          )
          fx.sentence[s] = sid
          pos += s.length + 1
          for (const [key, [name]] of Object.entries(ENTITIES)) {
            for (let at = s.indexOf(name); at >= 0; at = s.indexOf(name, at + 1)) {
              raw.prepare('insert into mentions (sentence_id, entity_id, start, "end", surface) values (?, ?, ?, ?, ?)').run(sid, fx.entity[key], at, at + name.length, name)
            }
          }
        }
      }
    }
    for (const [a, b, score] of LINKS) {
      raw.prepare("insert into entity_links (source_id, target_id, score, method) values (?, ?, ?, 'fixture')").run(fx.entity[a], fx.entity[b], score)
    }
  })()
  return fx
}

/**
 * Strict well-formedness for the XML subset GraphML needs (linkedom's parser is lenient and
 * would repair what Gephi rejects): balanced tags, quoted and unique attributes, only predefined
 * or numeric entity references, no raw "<" in text, no characters XML 1.0 forbids.
 */
function assertWellFormed(xml: string): void {
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true)
  expect(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.test(xml)).toBe(false)
  const body = xml.slice(xml.indexOf('?>') + 2)
  const stack: string[] = []
  const token = /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[\w.:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy
  let last = 0
  for (let m = token.exec(body); m; m = token.exec(body)) {
    last = token.lastIndex
    const [, close, name, attrs, selfClose, text] = m
    const checkRefs = (s: string): void => {
      for (const ref of s.match(/&[^;]*;?/g) ?? []) expect(ref).toMatch(/^&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);$/)
    }
    if (text !== undefined) {
      expect(text.includes('>') && text.includes(']]>')).toBe(false)
      checkRefs(text)
      continue
    }
    const names = [...(attrs ?? '').matchAll(/([\w.:-]+)="([^"]*)"/g)].map((a) => {
      checkRefs(a[2]!)
      return a[1]
    })
    expect(new Set(names).size).toBe(names.length)
    if (close) expect(stack.pop()).toBe(name)
    else if (!selfClose) stack.push(name!)
  }
  expect(last).toBe(body.length)
  expect(stack).toEqual([])
}

const edgeKey = (e: { source: string; target: string; kind: string }): string => `${e.kind} ${e.source} ${e.target}`

describe('graph store over a workspace database', () => {
  const tmp = tempDir('harness-lab-graph-')
  let opened: OpenedDatabase<WorkspaceDatabase>
  let raw: BetterSqlite3.Database
  let fx: Fixture
  const e = (key: string): string => `e:${fx.entity[key]}`
  const s = (text: string): string => `s:${fx.sentence[text]}`

  beforeAll(async () => {
    opened = await openDatabase<WorkspaceDatabase>(join(tmp.dir, 'workspace.db'), workspaceMigrations)
    raw = opened.raw
    fx = buildFixture(raw)
  })
  afterAll(async () => {
    await opened.close()
    tmp.cleanup()
  })

  describe('neighbourhood', () => {
    it("returns an entity's mentioning sentences and its own neighbour links, with the edges among them", () => {
      const g = neighbourhood(raw, e('paris'), { limit: 50 })
      expect(g.truncated).toBe(false)
      expect(g.nodes[0]).toMatchObject({ id: e('paris'), kind: 'entity', label: 'Paris', type: 'GPE', lookupOk: true, degree: 5 })
      expect(g.nodes.map((n) => n.id).sort()).toEqual(
        [e('paris'), e('france'), s('The Eiffel Tower is in Paris.'), s('Paris is proud of the Eiffel Tower.'), s('France has Paris as capital.'), s('Paris loves Paris.\u0001')].sort(),
      )
      expect(g.edges.map(edgeKey).sort()).toEqual(
        [
          `mention ${s('The Eiffel Tower is in Paris.')} ${e('paris')}`,
          `mention ${s('Paris is proud of the Eiffel Tower.')} ${e('paris')}`,
          `mention ${s('France has Paris as capital.')} ${e('paris')}`,
          `mention ${s('France has Paris as capital.')} ${e('france')}`,
          // Two mentions in one sentence are one edge.
          `mention ${s('Paris loves Paris.\u0001')} ${e('paris')}`,
          `neighbour ${e('paris')} ${e('france')}`,
        ].sort(),
      )
      expect(g.edges.find((x) => x.kind === 'neighbour')?.score).toBeCloseTo(0.82)
    })

    it('keeps the best candidates when the cap bites: links first, then the higher-degree sentences', () => {
      const g = neighbourhood(raw, e('paris'), { limit: 3 })
      expect(g.truncated).toBe(true)
      // Sentence degrees: "Paris is proud" 5 (two entities, both neighbours), the others 4, 4 and 3.
      expect(g.nodes.map((n) => n.id)).toEqual([e('paris'), e('france'), s('Paris is proud of the Eiffel Tower.')])
      expect(neighbourhood(raw, e('paris'), { limit: 6 }).truncated).toBe(false)
      expect(neighbourhood(raw, e('paris'), { limit: 5 }).truncated).toBe(true)
      expect(neighbourhood(raw, e('paris'), { limit: 1 })).toMatchObject({ nodes: [{ id: e('paris') }], edges: [], truncated: true })
    })

    it('links a sentence to its paragraph, the sentences beside it and what it mentions', () => {
      const center = s('Gustave Eiffel built it in 1887.')
      const g = neighbourhood(raw, center, { limit: 50 })
      const paragraph = `p:${fx.chunks[0]}`
      expect(g.nodes.map((n) => n.id)).toEqual([
        center,
        // Structure first: adjacent sentences (degree 4 each, lower id first), then the paragraph (degree 3).
        s('The Eiffel Tower is in Paris.'),
        s('French engineers worked on it.'),
        paragraph,
        e('gustave'),
        e('y1887'),
      ])
      const non = g.nodes.find((n) => n.id === e('y1887'))!
      expect(non).toMatchObject({ type: 'DATE', lookupOk: false })
      expect(non.title).toContain('not a LOOKUP target')
      expect(g.nodes[3]).toMatchObject({ kind: 'paragraph', label: 'Eiffel Tower ¶1', degree: 3 })
      expect(g.nodes[3]!.title).toContain('The Eiffel Tower is in Paris.')
      expect(g.edges.map(edgeKey)).toEqual([
        `mention ${center} ${e('gustave')}`,
        `mention ${center} ${e('y1887')}`,
        `next ${s('The Eiffel Tower is in Paris.')} ${center}`,
        `next ${center} ${s('French engineers worked on it.')}`,
        `in ${s('The Eiffel Tower is in Paris.')} ${paragraph}`,
        `in ${center} ${paragraph}`,
        `in ${s('French engineers worked on it.')} ${paragraph}`,
      ])
    })

    it('expands two hops breadth first within the cap, deterministically', () => {
      const one = neighbourhood(raw, e('tower'), { limit: 100 })
      const two = neighbourhood(raw, e('tower'), { depth: 2, limit: 100 })
      expect(two.nodes.length).toBeGreaterThan(one.nodes.length)
      // Hop one is kept whole and in front.
      expect(two.nodes.slice(0, one.nodes.length).map((n) => n.id)).toEqual(one.nodes.map((n) => n.id))
      expect(two.nodes.map((n) => n.id)).toContain(`p:${fx.chunks[1]}`)
      // Two hops reach 11 nodes: the cap cuts below that and not at it.
      expect(neighbourhood(raw, e('tower'), { depth: 2, limit: 11 })).toMatchObject({ truncated: false, nodes: two.nodes })
      for (const limit of [1, 4, 7, 10]) {
        const capped = neighbourhood(raw, e('tower'), { depth: 2, limit })
        expect(capped.nodes.length).toBe(limit)
        expect(capped.truncated).toBe(true)
        expect(new Set(capped.nodes.map((n) => n.id)).size).toBe(limit)
        const ids = new Set(capped.nodes.map((n) => n.id))
        for (const edge of capped.edges) expect(ids.has(edge.source) && ids.has(edge.target)).toBe(true)
        expect(neighbourhood(raw, e('tower'), { depth: 2, limit })).toEqual(capped)
      }
    })

    it('shows a paragraph with its sentences, and an isolated entity alone', () => {
      const g = neighbourhood(raw, `p:${fx.chunks[1]}`, { limit: 10 })
      expect(g.nodes.map((n) => n.kind)).toEqual(['paragraph', 'sentence', 'sentence'])
      expect(g.edges.filter((x) => x.kind === 'in')).toHaveLength(2)
      expect(g.edges.filter((x) => x.kind === 'next')).toHaveLength(1)
      expect(neighbourhood(raw, e('lonely'), { depth: 2, limit: 10 })).toMatchObject({ nodes: [{ id: e('lonely'), degree: 0 }], edges: [], truncated: false })
    })

    it('rejects malformed ids, unknown nodes and bad options with a GraphError', () => {
      const failure = (fn: () => unknown): GraphError => {
        try {
          fn()
        } catch (err) {
          expect(err).toBeInstanceOf(GraphError)
          return err as GraphError
        }
        throw new Error('expected a GraphError')
      }
      expect(failure(() => neighbourhood(raw, 'x:1', { limit: 5 })).code).toBe('bad-node-id')
      expect(failure(() => neighbourhood(raw, 'e:0', { limit: 5 })).code).toBe('bad-node-id')
      expect(failure(() => neighbourhood(raw, 'e:1; drop table entities', { limit: 5 })).code).toBe('bad-node-id')
      const missing = failure(() => neighbourhood(raw, 'e:99999', { limit: 5 }))
      expect(missing.code).toBe('not-found')
      expect(missing.message).toContain('e:99999')
      expect(failure(() => neighbourhood(raw, 's:99999', { limit: 5 })).code).toBe('not-found')
      expect(failure(() => neighbourhood(raw, e('paris'), { limit: 0 })).code).toBe('bad-argument')
      expect(failure(() => neighbourhood(raw, e('paris'), { limit: 2.5 })).code).toBe('bad-argument')
      expect(failure(() => neighbourhood(raw, e('paris'), { limit: 5, depth: 3 as 1 })).code).toBe('bad-argument')
    })
  })

  describe('searchNodes', () => {
    const names = (text: string, limit = 10): string[] => searchNodes(raw, text, limit).map((n) => n.label)

    it('ranks exact names, then prefixes, then word prefixes, then substrings, case-insensitively', () => {
      expect(names('eiffel')).toEqual(['Eiffel Tower', 'Gustave Eiffel'])
      expect(names('PARIS')).toEqual(['Paris'])
      expect(names('fr')).toEqual(['France', 'French'])
      expect(names('ower')).toEqual(['Eiffel Tower'])
      expect(names('of lib')).toEqual(['Statue of Liberty'])
      expect(names('e', 2)).toHaveLength(2)
    })

    it('folds accents, treats LIKE wildcards literally and finds nodes by id', () => {
      expect(names('zurich')).toEqual(['Zürich'])
      expect(names('%')).toEqual([])
      expect(names('_')).toEqual([])
      expect(names('at&t')).toEqual(['AT&T <Labs> "Bell"'])
      expect(names('   ')).toEqual([])
      expect(searchNodes(raw, s('Paris loves Paris.\u0001'), 5)).toMatchObject([{ kind: 'sentence', label: 'Paris loves Paris.\u0001' }])
      expect(searchNodes(raw, e('paris'), 5)[0]).toMatchObject({ id: e('paris'), type: 'GPE' })
      expect(searchNodes(raw, 'e:424242', 5)).toEqual([])
      expect(() => searchNodes(raw, 'x', 0)).toThrow(GraphError)
    })
  })

  describe('graphStats', () => {
    it('counts nodes, edges by kind and tokens', () => {
      const st = graphStats(raw)
      expect(st).toMatchObject({ documents: 3, chunks: 4, sentences: 10, entities: { total: 10, lookupOk: 8 } })
      expect(st.entities.byType).toEqual({ DATE: 1, FAC: 2, GPE: 3, NORP: 1, ORG: 2, PERSON: 1 })
      // "Paris loves Paris." holds two mention rows but one mention edge.
      const mentionRows = raw.prepare('select count(*) from mentions').pluck().get() as number
      expect(st.mentions).toBe(mentionRows)
      expect(st.edges.mention).toBe(mentionRows - 1)
      expect(st.edges).toMatchObject({ next: 10 - 3, in: 10, neighbour: 4 })
      expect(st.edges.total).toBe(st.edges.mention + 7 + 10 + 4)
      expect(st.nodes).toBe(4 + 10 + 10)
      expect(st.tokens).toBe(DOCUMENTS.reduce((sum, [, chunks]) => sum + chunks.flat().join(' ').split(' ').length, 0))
    })
  })

  describe('GraphML export', () => {
    const parse = (file: string): Document => new DOMParser().parseFromString(readFileSync(file, 'utf8'), 'text/xml') as unknown as Document

    it('writes the whole graph as well-formed GraphML with declared keys and matching counts', () => {
      const file = join(tmp.dir, 'whole.graphml')
      const progress: number[] = []
      const result = exportGraphML(raw, file, { onProgress: (done) => progress.push(done) })
      const xml = readFileSync(file, 'utf8')
      assertWellFormed(xml)
      const st = graphStats(raw)
      expect(result).toMatchObject({ file, nodes: st.nodes, edges: st.edges.total, truncated: false, bytes: statSync(file).size })
      expect(existsSync(`${file}.partial`)).toBe(false)
      expect(progress.at(-1)).toBe(st.nodes + st.edges.total)

      const doc = parse(file)
      const root = doc.documentElement
      expect(root.tagName).toBe('graphml')
      expect(root.getAttribute('xmlns')).toBe('http://graphml.graphdrawing.org/xmlns')
      const keys = [...doc.getElementsByTagName('key')].map((k) => `${k.getAttribute('for')}:${k.getAttribute('attr.name')}:${k.getAttribute('attr.type')}`)
      expect(keys).toEqual(expect.arrayContaining(['node:kind:string', 'node:label:string', 'node:type:string', 'node:text:string', 'edge:kind:string', 'edge:score:double']))
      expect(doc.getElementsByTagName('graph')[0]!.getAttribute('edgedefault')).toBe('directed')
      const nodes = [...doc.getElementsByTagName('node')]
      const edges = [...doc.getElementsByTagName('edge')]
      expect(nodes).toHaveLength(st.nodes)
      expect(edges).toHaveLength(st.edges.total)
      const byKind = (k: string): number => edges.filter((x) => x.querySelector('data[key="ekind"]')?.textContent === k).length
      expect([byKind('mention'), byKind('next'), byKind('in'), byKind('neighbour')]).toEqual([st.edges.mention, st.edges.next, st.edges.in, st.edges.neighbour])
      // Every edge end is a declared node.
      const ids = new Set(nodes.map((n) => n.getAttribute('id')))
      for (const edge of edges) expect(ids.has(edge.getAttribute('source')) && ids.has(edge.getAttribute('target'))).toBe(true)
      // Escaped text comes back intact; the control character XML cannot carry is dropped.
      const att = nodes.find((n) => n.getAttribute('id') === e('att'))!
      expect(att.querySelector('data[key="label"]')!.textContent).toBe('AT&T <Labs> "Bell"')
      expect(att.querySelector('data[key="lookup_ok"]')!.textContent).toBe('true')
      const loves = nodes.find((n) => n.getAttribute('id') === s('Paris loves Paris.\u0001'))!
      expect(loves.querySelector('data[key="text"]')!.textContent).toBe('Paris loves Paris.')
      expect(loves.querySelector('data[key="document"]')!.textContent).toBe('France & "Friends" <b>')
      const link = edges.find((x) => x.querySelector('data[key="ekind"]')?.textContent === 'neighbour')!
      expect(Number(link.querySelector('data[key="score"]')!.textContent)).toBeGreaterThanOrEqual(0.8)
    })

    it('exports a neighbourhood with exactly the nodes and edges the browser would show', () => {
      const file = join(tmp.dir, 'tower.graphml')
      const sub: Subgraph = neighbourhood(raw, e('tower'), { depth: 2, limit: 9 })
      const result = exportGraphML(raw, file, { center: e('tower'), depth: 2, limit: 9, includeText: false })
      assertWellFormed(readFileSync(file, 'utf8'))
      expect(result).toMatchObject({ nodes: sub.nodes.length, edges: sub.edges.length, truncated: true })
      const doc = parse(file)
      expect([...doc.getElementsByTagName('node')].map((n) => n.getAttribute('id')).sort()).toEqual(sub.nodes.map((n) => n.id).sort())
      expect(
        [...doc.getElementsByTagName('edge')].map((x) => `${x.querySelector('data[key="ekind"]')!.textContent} ${x.getAttribute('source')} ${x.getAttribute('target')}`).sort(),
      ).toEqual(sub.edges.map(edgeKey).sort())
      expect(doc.querySelector('data[key="text"]')).toBeNull()
    })

    it('leaves no file behind when the export fails or is cancelled', () => {
      const file = join(tmp.dir, 'failed.graphml')
      expect(() => exportGraphML(raw, file, { center: 'e:99999' })).toThrow(GraphError)
      expect(existsSync(file) || existsSync(`${file}.partial`)).toBe(false)
      expect(() =>
        exportGraphML(raw, file, {
          checkpoint: () => {
            throw new Error('cancelled')
          },
        }),
      ).toThrow('cancelled')
      expect(existsSync(file) || existsSync(`${file}.partial`)).toBe(false)
    })
  })
})
