/**
 * A graph you can trust: one entity per name on the demo world (types voted by mentions, NAME for
 * untyped names, never a part-of-speech tag), the merge migration for graphs built before, value
 * hubs never offered as LOOKUP, and the graph statistics route.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { workspaceMigrations } from '../../main/db/migrations'
import { openDatabase } from '../../main/db/open'
import { graphStructure, HUB_MIN_DEGREE, neighbourhood, VALUE_ENTITY_TYPES } from '../../main/graph/store'
import { createEnvironment, runEpisode } from '../../main/harness'
import { lookupEligible } from '../../main/harness/graph-menu/lookup-items'
import { environmentContext } from '../../main/harness/types'
import { votedType } from '../../main/ingest/writer'
import { createScriptedPolicy } from '../../main/policy/scripted'
import { openDemoWorkspace, type DemoWorkspace } from '../helpers/corpus'
import { tempDir } from '../helpers/services'

let demo: DemoWorkspace
beforeAll(async () => {
  demo = await openDemoWorkspace(1, 1)
})
afterAll(async () => {
  await demo.close()
})

const all = <T>(sql: string, ...params: unknown[]): T[] => demo.db.raw.prepare(sql).all(...params) as T[]
const one = (sql: string, ...params: unknown[]): number => Number(demo.db.raw.prepare(sql).pluck().get(...params))
const VALUES = "('DATE','TIME','CARDINAL','ORDINAL','QUANTITY','PERCENT','MONEY')"

describe('one entity per name', () => {
  it('the demo world has no name under two types, no POS tag as a type, and each type is its mentions’ vote', () => {
    expect(one('select count(*) from entities')).toBeGreaterThan(100)
    expect(all('select canonical from entities group by canonical having count(*) > 1')).toEqual([])
    expect(all("select lower(name) as name, group_concat(type) as types from entities where type not in " + VALUES + ' group by lower(name) having count(distinct type) > 1')).toEqual([])
    expect(one("select count(*) from entities where type = 'PROPN'")).toBe(0)
    expect(one("select count(*) from entities where type = 'NAME'")).toBeGreaterThan(0)
    expect(one('select count(*) from mentions where type is null')).toBe(0)
    // No entity is linked to itself (a place once linked to its own PROPN twin).
    expect(one('select count(*) from entity_links where source_id = target_id')).toBe(0)
    const rows = all<{ id: number; type: string; votes: string }>(
      `select e.id, e.type, json_group_object(m.type, m.n) as votes from entities e
       join (select entity_id, type, count(*) as n from mentions group by entity_id, type) m on m.entity_id = e.id group by e.id`,
    )
    let mixed = 0
    for (const r of rows) {
      const votes = new Map(Object.entries(JSON.parse(r.votes) as Record<string, number>))
      if (votes.size > 1) mixed++
      expect(r.type, `entity ${r.id} ${r.votes}`).toBe(votedType(votes))
    }
    // Some names really were read with two types: the vote is what merged them.
    expect(mixed).toBeGreaterThan(0)
    expect(one(`select count(*) from entities where lookup_ok = 1 and type in ${VALUES.slice(0, -1)},'NORP')`)).toBe(0)
  })

  it('votes a typed reading over NAME, then the majority, ties to the first type', () => {
    expect(votedType(new Map([['NAME', 5], ['GPE', 1]]))).toBe('GPE')
    expect(votedType(new Map([['GPE', 2], ['PERSON', 3]]))).toBe('PERSON')
    expect(votedType(new Map([['GPE', 2], ['PERSON', 2]]))).toBe('PERSON')
    expect(votedType(new Map([['NAME', 2]]))).toBe('NAME')
    expect(() => votedType(new Map())).toThrow(/no type/)
  })
})

describe('the 0010_one_entity_per_name migration', () => {
  it('merges a graph built before into one entity per canonical name, keeping every mention and link', async () => {
    const tmp = tempDir('harness-lab-merge-')
    const file = join(tmp.dir, 'workspace.db')
    const before = Object.fromEntries(Object.entries(workspaceMigrations).filter(([name]) => name < '0010_one_entity_per_name'))
    const old = await openDatabase(file, before)
    const r = old.raw
    r.prepare("insert into source_files (path, format, size_bytes, sha256, status, document_count, ingested_at) values ('a', 'txt', 1, 'x', 'ok', 1, 'now')").run()
    r.prepare("insert into documents (file_id, external_id, title, text, token_count) values (1, 'a', 'A', ?, 9)").run("Lagos is big. LAGOS grew. Lagos's port.")
    r.prepare("insert into chunks (document_id, ord, text, start_char, end_char, token_count, first_sentence, last_sentence) values (1, 0, 't', 0, 9, 9, 0, 2)").run()
    for (const ord of [0, 1, 2]) r.prepare("insert into sentences (document_id, chunk_id, ord, text, start_char, end_char) values (1, 1, ?, 's', 0, 1)").run(ord)
    const entity = (canonical: string, type: string, name: string, ok: number): number =>
      Number(r.prepare('insert into entities (canonical, type, name, lookup_ok) values (?, ?, ?, ?)').run(canonical, type, name, ok).lastInsertRowid)
    const gpe = entity('lagos', 'GPE', "Lagos's", 1)
    const propn = entity('lagos', 'PROPN', 'Lagos', 1)
    const other = entity('lagos state', 'PROPN', 'Lagos State', 1)
    const mention = r.prepare('insert into mentions (sentence_id, entity_id, start, end, surface) values (?, ?, 0, 5, ?)')
    mention.run(1, gpe, 'Lagos')
    mention.run(2, propn, 'LAGOS')
    mention.run(3, propn, 'Lagos')
    mention.run(1, propn, 'Lagos') // the same span under both types: one mention after the merge
    const link = r.prepare("insert into entity_links (source_id, target_id, score, method) values (?, ?, ?, 'name-trigram-tfidf')")
    link.run(gpe, propn, 1)
    link.run(propn, gpe, 1)
    link.run(propn, other, 0.85)
    link.run(other, propn, 0.85)
    await old.close()

    const migrated = await openDatabase(file, workspaceMigrations)
    try {
      const m = migrated.raw
      expect(m.prepare('select id, canonical, type, name, lookup_ok from entities order by id').all()).toEqual([
        { id: gpe, canonical: 'lagos', type: 'GPE', name: 'Lagos', lookup_ok: 1 },
        { id: other, canonical: 'lagos state', type: 'NAME', name: 'Lagos State', lookup_ok: 1 },
      ])
      expect(m.prepare('select sentence_id, entity_id, type from mentions order by sentence_id').all()).toEqual([
        { sentence_id: 1, entity_id: gpe, type: 'GPE' },
        { sentence_id: 2, entity_id: gpe, type: 'NAME' },
        { sentence_id: 3, entity_id: gpe, type: 'NAME' },
      ])
      expect(m.prepare('select source_id, target_id from entity_links order by source_id').all()).toEqual([
        { source_id: gpe, target_id: other },
        { source_id: other, target_id: gpe },
      ])
      expect(m.prepare("select value from meta where key = 'entity_links_dirty'").pluck().get()).toBe('1')
      expect(() => m.prepare("insert into entities (canonical, type, name, lookup_ok) values ('lagos', 'ORG', 'x', 1)").run()).toThrow(/UNIQUE/)
    } finally {
      await migrated.close()
      tmp.cleanup()
    }
  })
})

describe('value hubs', () => {
  it('are never LOOKUP items, even where an older graph stored them as LOOKUP targets', async () => {
    const raw = demo.db.raw
    const hubs = all<{ id: number; type: string }>(
      `select e.id, e.type from entities e join mentions m on m.entity_id = e.id where e.type in ${VALUES} group by e.id order by count(distinct m.sentence_id) desc limit 20`,
    )
    expect(hubs.length).toBeGreaterThan(5)
    const ids = new Set(hubs.map((h) => h.id))
    // As an older graph might have them: flagged as LOOKUP targets, so episodes admit them.
    raw.prepare(`update entities set lookup_ok = 1 where id in (${[...ids].join(',')})`).run()
    try {
      const env = createEnvironment('graph-menu', environmentContext(raw))
      let admitted = 0
      let lookups = 0
      for (const [i, q] of demo.questions.slice(0, 12).entries()) {
        const t = await runEpisode(env, createScriptedPolicy('greedy', 'sentence-menu'), q, i, { previews: true })
        for (const s of t.steps) {
          const snapshot = s.snapshot as { entities: { ids: number[] }[] }
          admitted += snapshot.entities.filter((e) => e.ids.some((id) => ids.has(id))).length
          for (const item of s.actions.kind === 'menu' ? s.actions.items : []) {
            if (item.type !== 'LOOKUP') continue
            lookups++
            const target = item.target as { entity: { ids: number[]; type: string } }
            expect(target.entity.ids.some((id) => ids.has(id)), `LOOKUP of a value hub (${target.entity.type})`).toBe(false)
          }
        }
      }
      expect(admitted, 'the forced hubs reached the episodes').toBeGreaterThan(0)
      expect(lookups, 'other entities are still looked up').toBeGreaterThan(0)
    } finally {
      raw.prepare(`update entities set lookup_ok = 0 where id in (${[...ids].join(',')})`).run()
    }
    expect(lookupEligible({ name: '5', type: 'CARDINAL', canonical: '5' })).toBe(false)
    expect(lookupEligible({ name: '1887', type: 'NAME', canonical: '1887' })).toBe(false)
    expect(lookupEligible({ name: 'Lagos', type: 'GPE', canonical: 'lagos' })).toBe(true)
  })

  it('are marked as hubs in neighbourhoods, and the statistics count every node, edge and component', () => {
    const raw = demo.db.raw
    const s = graphStructure(raw, 5)
    const byType = s.counts.entities.byType
    expect(Object.values(byType).reduce((a, b) => a + b, 0)).toBe(s.counts.entities.total)
    expect(byType.PROPN).toBeUndefined()
    expect(s.degrees.reduce((a, b) => a + b.entities, 0)).toBe(s.counts.entities.total)
    for (const b of s.degrees) expect(b.max).toBeGreaterThanOrEqual(b.min)
    expect(s.maxDegree).toBeGreaterThanOrEqual(s.degrees.at(-1)!.min)
    expect(s.components.length).toBeLessThanOrEqual(5)
    for (let i = 1; i < s.components.length; i++) expect(s.components[i]!.nodes).toBeLessThanOrEqual(s.components[i - 1]!.nodes)
    const documents = one('select count(*) from documents')
    expect(s.components.reduce((a, c) => a + c.documents, 0)).toBeLessThanOrEqual(documents)
    expect(s.componentCount).toBeGreaterThanOrEqual(s.components.length)
    expect(s.hubs.length).toBeGreaterThan(0)
    for (const h of s.hubs) expect(h.degree).toBeGreaterThanOrEqual(HUB_MIN_DEGREE)
    const hub = s.hubs[0]!
    const around = neighbourhood(raw, hub.id, { depth: 1, limit: 10 })
    expect(around.nodes[0]).toMatchObject({ id: hub.id, hub: true })
    expect(around.nodes.filter((n) => n.kind === 'entity' && !n.hub).every((n) => !['DATE', 'CARDINAL'].includes(n.type!) || n.degree! < HUB_MIN_DEGREE)).toBe(true)
  })

  it('name where the explorer starts: the best-connected entity that is not a date or number, never a hub', () => {
    const raw = demo.db.raw
    const { start, hubs } = graphStructure(raw, 5)
    expect(start).not.toBeNull()
    expect(VALUE_ENTITY_TYPES as readonly string[]).not.toContain(start!.type)
    expect(hubs.map((h) => h.id)).not.toContain(start!.id)
    // Its degree is the highest among entities that are not values, and its neighbourhood draws.
    const values = (VALUE_ENTITY_TYPES as readonly string[]).map((t) => `'${t}'`).join(', ')
    const best = one(
      `select max((select count(distinct m.sentence_id) from mentions m where m.entity_id = e.id) + (select count(*) from entity_links l where l.source_id = e.id)) from entities e where e.type not in (${values})`,
    )
    expect(start!.degree).toBe(best)
    expect(neighbourhood(raw, start!.id, { depth: 1, limit: 10 }).nodes[0]).toMatchObject({ id: start!.id })
  })
})
