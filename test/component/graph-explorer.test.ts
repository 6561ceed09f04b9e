import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { graphStructure, HUB_MIN_DEGREE, neighbourhood } from '../../main/graph/store'
import GraphExplorer from '../../renderer/src/components/graph/GraphExplorer.vue'
import GraphStats from '../../renderer/src/components/graph/GraphStats.vue'
import { computeLayout } from '../../renderer/src/components/graph/force-layout'
import { mergeInto, emptyView } from '../../renderer/src/components/graph/graph-model'
import { createLayoutEngine, mainThreadLayout } from '../../renderer/src/components/graph/layout-engine'
import type { GraphEdge, GraphNode, LoadNeighbourhood, SearchNodes, Subgraph } from '../../renderer/src/components/graph/types'
import { openDemoWorkspace } from '../helpers/corpus'
import { until } from './fixtures'

/**
 * A small in-memory graph shaped like the backend's: one hub entity mentioned by 30 sentences in
 * three paragraphs, a work mentioned by every third sentence, a DATE (not a LOOKUP target) and a
 * neighbour link.
 */
function memoryGraph(): { nodes: Map<string, GraphNode>; edges: GraphEdge[] } {
  const nodes = new Map<string, GraphNode>()
  const edges: GraphEdge[] = []
  const add = (n: GraphNode): void => void nodes.set(n.id, n)
  add({ id: 'e:1', kind: 'entity', label: 'Ada Lovelace', type: 'PERSON', lookupOk: true, title: 'Ada Lovelace (PERSON)' })
  add({ id: 'e:2', kind: 'entity', label: 'Analytical Engine', type: 'WORK_OF_ART', lookupOk: true })
  add({ id: 'e:3', kind: 'entity', label: '1843', type: 'DATE', lookupOk: false, title: '1843 (DATE, not a LOOKUP target)' })
  add({ id: 'e:4', kind: 'entity', label: 'Charles Babbage', type: 'PERSON', lookupOk: true })
  for (let p = 1; p <= 3; p++) add({ id: `p:${p}`, kind: 'paragraph', label: `Notes ¶${p}` })
  for (let s = 1; s <= 30; s++) {
    add({ id: `s:${s}`, kind: 'sentence', label: `Sentence ${s} about Ada`, title: `Sentence ${s} about Ada Lovelace and the engine.` })
    edges.push({ source: `s:${s}`, target: 'e:1', kind: 'mention' })
    if (s % 3 === 0) edges.push({ source: `s:${s}`, target: 'e:2', kind: 'mention' })
    edges.push({ source: `s:${s}`, target: `p:${Math.ceil(s / 10)}`, kind: 'in' })
    if (s % 10 !== 0) edges.push({ source: `s:${s}`, target: `s:${s + 1}`, kind: 'next' })
  }
  edges.push({ source: 's:1', target: 'e:3', kind: 'mention' })
  edges.push({ source: 'e:1', target: 'e:4', kind: 'neighbour', score: 0.86 })
  for (const n of nodes.values()) n.degree = edges.filter((e) => e.source === n.id || e.target === n.id).length
  return { nodes, edges }
}

/** One-hop neighbourhood, best connected first, capped like the backend (centre included). */
function backend(limit: number) {
  const g = memoryGraph()
  const load = vi.fn(async (center: string): Promise<Subgraph> => {
    const centre = g.nodes.get(center)
    if (!centre) throw new Error(`No node ${center}`)
    const around = g.edges.flatMap((e) => (e.source === center ? [e.target] : e.target === center ? [e.source] : []))
    const ranked = [...new Set(around)].map((id) => g.nodes.get(id)!).sort((a, b) => (b.degree ?? 0) - (a.degree ?? 0) || a.id.localeCompare(b.id))
    const kept = [centre, ...ranked.slice(0, limit - 1)]
    const ids = new Set(kept.map((n) => n.id))
    return { nodes: kept, edges: g.edges.filter((e) => ids.has(e.source) && ids.has(e.target)), truncated: ranked.length > limit - 1 }
  })
  const search = vi.fn(async (text: string): Promise<GraphNode[]> =>
    [...g.nodes.values()].filter((n) => n.kind === 'entity' && n.label.toLowerCase().includes(text.toLowerCase())),
  )
  return { load, search }
}

const nodeIds = (w: VueWrapper): string[] => w.findAll('[data-test="graph-node"]').map((n) => n.attributes('data-node-id')!)

let wrapper: VueWrapper | undefined
afterEach(() => {
  wrapper?.unmount()
  wrapper = undefined
})

async function mountExplorer(props: { load: LoadNeighbourhood; search: SearchNodes; initialCenter?: string; maxNodes?: number }): Promise<VueWrapper> {
  wrapper = mount(GraphExplorer, { props: { layout: mainThreadLayout(), searchDelayMs: 0, ...props }, attachTo: document.body })
  await flushPromises()
  return wrapper
}

describe('GraphExplorer', () => {
  it('searches entity names, and picking a result shows its neighbourhood with a legend', async () => {
    const { load, search } = backend(100)
    const w = await mountExplorer({ load, search })
    expect(w.text()).toContain('Search for an entity')
    // Typing lists the matches as chips (the drawing waits for a pick or Enter).
    await w.get('[data-test="graph-search-input"]').setValue('babb')
    await until(() => w.findAll('[data-test="graph-search-result"]').length > 0, 'the matches as chips')
    expect(search).toHaveBeenCalledWith('babb')
    const results = w.findAll('[data-test="graph-search-result"]')
    expect(results.map((r) => r.text())).toEqual([expect.stringContaining('Charles Babbage')])
    expect(results[0]!.text()).toContain('PERSON')

    await results[0]!.trigger('click')
    await flushPromises()
    expect(load).toHaveBeenCalledWith('e:4')
    expect(nodeIds(w).sort()).toEqual(['e:1', 'e:4'])
    expect(w.findAll('[data-test="graph-edge"]').map((e) => e.attributes('data-edge-kind'))).toEqual(['neighbour'])
    expect(w.find('[data-test="graph-search-results"]').exists()).toBe(false)
    expect(w.emitted('center')).toEqual([['e:4']])
    // The centre is selected and described; every node has a finite position.
    expect(w.get('[data-test="graph-details"]').text()).toContain('Charles Babbage')
    for (const n of w.findAll('[data-test="graph-node"]')) expect(n.attributes('transform')).toMatch(/^translate\(-?[\d.]+(e-?\d+)?,-?[\d.]+(e-?\d+)?\)$/)
    const legend = w.get('[data-test="graph-legend"]').text()
    expect(legend).toContain('Paragraph')
    expect(legend).toContain('Sentence')
    expect(legend).toContain('PERSON')
    expect(legend).toContain('entity neighbour')
  })

  it('Enter moves the drawing to the best match at once', async () => {
    const { load, search } = backend(100)
    const w = await mountExplorer({ load, search })
    await w.get('[data-test="graph-search-input"]').setValue('babb')
    await w.get('form').trigger('submit')
    await until(() => nodeIds(w).length === 2, 'the drawing centred on the match')
    expect(load).toHaveBeenCalledWith('e:4')
    expect(w.emitted('center')).toEqual([['e:4']])
    expect(nodeIds(w).sort()).toEqual(['e:1', 'e:4'])
  })

  it("the page's opening view gives way to a search typed while it loads, and never replaces a picked node", async () => {
    const { load, search } = backend(100)
    // The opening entity's neighbourhood is held until released: the statistics behind it arrive late on a busy machine.
    let release = (): void => {}
    const slowLoad: LoadNeighbourhood = async (center) => {
      if (center === 'e:1') await new Promise<void>((r) => (release = r))
      return load(center)
    }
    const w = await mountExplorer({ load: slowLoad, search })
    const explorer = w.vm as unknown as { showStart(id: string): Promise<void> }
    const opening = explorer.showStart('e:1')
    await w.get('[data-test="graph-search-input"]').setValue('babb')
    await until(() => w.findAll('[data-test="graph-search-result"]').length > 0, 'the matches as chips')
    release()
    await opening
    await flushPromises()
    // The typed search's matches stay; nothing is drawn until the user picks.
    expect(nodeIds(w)).toEqual([])
    expect(w.findAll('[data-test="graph-search-result"]').length).toBeGreaterThan(0)
    await w.get('[data-test="graph-search-result"]').trigger('click')
    await until(() => nodeIds(w).length === 2, 'the picked node')
    // Once the user has picked, the opening view is not shown again.
    await explorer.showStart('e:1')
    await flushPromises()
    expect(nodeIds(w).sort()).toEqual(['e:1', 'e:4'])
    expect(w.emitted('center')).toEqual([['e:4']])
  })

  it('searches while typing and says when nothing matches', async () => {
    const { load, search } = backend(100)
    const w = await mountExplorer({ load, search })
    await w.get('[data-test="graph-search-input"]').setValue('zzz')
    await until(() => w.find('[data-test="graph-search-empty"]').exists(), 'the note that nothing matches')
    expect(w.get('[data-test="graph-search-empty"]').text()).toContain('zzz')
  })

  it('expands a clicked node by merging its neighbourhood into the view', async () => {
    const { load, search } = backend(100)
    const w = await mountExplorer({ load, search, initialCenter: 'e:2' })
    const before = nodeIds(w)
    expect(before).toHaveLength(11) // the work and its ten sentences
    expect(before).not.toContain('p:1')
    const edgesBefore = w.findAll('[data-test="graph-edge"]').length

    await w.get('[data-node-id="s:3"]').trigger('click')
    await flushPromises()
    expect(load).toHaveBeenLastCalledWith('s:3')
    const after = nodeIds(w)
    expect(after).toEqual(expect.arrayContaining([...before, 'e:1', 'p:1', 's:2', 's:4']))
    expect(w.findAll('[data-test="graph-edge"]').length).toBeGreaterThan(edgesBefore)
    expect(w.get('[data-node-id="s:3"]').classes()).toContain('node-expanded')
    expect(w.emitted('select')!.at(-1)).toEqual([expect.objectContaining({ id: 's:3' })])
    // An expanded node does not load again.
    await w.get('[data-node-id="s:3"]').trigger('click')
    await flushPromises()
    expect(load).toHaveBeenCalledTimes(2)
    // Expanding the hub brings s:1, and s:1 brings the DATE, which draws muted.
    await w.get('[data-node-id="e:1"]').trigger('click')
    await flushPromises()
    await w.get('[data-node-id="s:1"]').trigger('click')
    await flushPromises()
    const date = w.get('[data-node-id="e:3"]')
    expect(date.classes()).toContain('node-muted')
    expect(w.get('[data-test="graph-legend"] [data-entity-type="DATE"]').text()).toContain('not a LOOKUP target')
  })

  it('shows the hovered node text in the details panel', async () => {
    const { load, search } = backend(100)
    const w = await mountExplorer({ load, search, initialCenter: 'e:2' })
    await w.get('[data-node-id="s:6"]').trigger('mouseenter')
    expect(w.get('[data-test="graph-details"]').text()).toContain('Sentence 6 about Ada Lovelace and the engine.')
    await w.get('[data-node-id="s:6"]').trigger('mouseleave')
    expect(w.get('[data-test="graph-details"]').text()).toContain('Analytical Engine')
  })

  it('honours the node cap and says the view is truncated', async () => {
    const { load, search } = backend(100)
    const w = await mountExplorer({ load, search, initialCenter: 'e:1', maxNodes: 12 })
    expect(nodeIds(w)).toHaveLength(12)
    expect(nodeIds(w)[0]).toBe('e:1')
    expect(w.get('[data-test="graph-truncated"]').text()).toContain('capped at 12 nodes')
    expect(w.get('[data-test="graph-count"]').text()).toContain('12 / 12 nodes')
    // Expanding at the cap adds edges at most, never nodes.
    await w.get(`[data-node-id="${nodeIds(w)[3]}"]`).trigger('click')
    await flushPromises()
    expect(nodeIds(w)).toHaveLength(12)
  })

  it('shows the backend truncation note even under the cap', async () => {
    const { load, search } = backend(8)
    const w = await mountExplorer({ load, search, initialCenter: 'e:1' })
    expect(nodeIds(w)).toHaveLength(8)
    expect(w.get('[data-test="graph-truncated"]').text()).toContain('Truncated')
  })

  it('reports load failures and keeps working', async () => {
    const { load, search } = backend(100)
    const w = await mountExplorer({ load, search, initialCenter: 'e:404' })
    expect(w.get('[data-test="graph-error"]').text()).toContain('No node e:404')
    await (w.vm as unknown as { show: (id: string) => Promise<void> }).show('e:4')
    await flushPromises()
    expect(w.find('[data-test="graph-error"]').exists()).toBe(false)
    expect(nodeIds(w)).toHaveLength(2)
  })

  it('lays out on the main thread when no worker can start', async () => {
    const { load, search } = backend(100)
    const original = (globalThis as { Worker?: unknown }).Worker
    ;(globalThis as { Worker?: unknown }).Worker = undefined
    try {
      wrapper = mount(GraphExplorer, { props: { load, search, initialCenter: 'e:2', searchDelayMs: 0 } })
      await flushPromises()
      expect(nodeIds(wrapper)).toHaveLength(11)
    } finally {
      ;(globalThis as { Worker?: unknown }).Worker = original
    }
  })
})

describe('graph explorer helpers', () => {
  it('merges best-first within the cap and keeps edges only between present nodes', () => {
    const view = emptyView()
    const n = (id: string): GraphNode => ({ id, kind: 'entity', label: id })
    const first = mergeInto(view, { nodes: [n('e:1'), n('e:2')], edges: [{ source: 'e:1', target: 'e:2', kind: 'neighbour', score: 0.9 }], truncated: false }, 3)
    expect(first).toEqual({ added: ['e:1', 'e:2'], dropped: 0 })
    const second = mergeInto(
      view,
      { nodes: [n('e:2'), n('e:3'), n('e:4')], edges: [{ source: 'e:2', target: 'e:3', kind: 'neighbour' }, { source: 'e:2', target: 'e:4', kind: 'neighbour' }], truncated: false },
      3,
    )
    expect(second).toEqual({ added: ['e:3'], dropped: 1 })
    expect([...view.edges.keys()]).toEqual(['neighbour|e:1|e:2', 'neighbour|e:2|e:3'])
  })

  it('computes a deterministic layout that keeps pinned nodes in place', () => {
    const request = {
      nodes: [
        { id: 'a', kind: 'entity' as const, x: 100, y: 50, pinned: true },
        { id: 'b', kind: 'sentence' as const },
        { id: 'c', kind: 'paragraph' as const },
      ],
      links: [
        { source: 'b', target: 'a', kind: 'mention' as const },
        { source: 'b', target: 'c', kind: 'in' as const },
        { source: 'b', target: 'gone', kind: 'in' as const },
      ],
    }
    const p = computeLayout(request)
    expect(p.a).toEqual({ x: 100, y: 50 })
    expect(Number.isFinite(p.b!.x) && Number.isFinite(p.c!.y)).toBe(true)
    expect(computeLayout(request)).toEqual(p)
  })

  it('the default engine falls back to the main thread', async () => {
    const engine = createLayoutEngine()
    const p = await engine.run({ nodes: [{ id: 'x', kind: 'entity' }], links: [] })
    expect(Object.keys(p)).toEqual(['x'])
    engine.dispose()
  })
})

describe('GraphExplorer and GraphStats over a real demo-world graph', () => {
  let demo: Awaited<ReturnType<typeof openDemoWorkspace>>
  beforeAll(async () => {
    demo = await openDemoWorkspace(1, 1)
  })
  afterAll(async () => {
    await demo.close()
  })
  const realLoad = (): LoadNeighbourhood & { calls: string[] } => {
    const calls: string[] = []
    const load = async (center: string): Promise<Subgraph> => {
      calls.push(center)
      return neighbourhood(demo.db.raw, center, { depth: 1, limit: 150 })
    }
    return Object.assign(load, { calls })
  }
  const noSearch: SearchNodes = async () => []

  it('shows a date or number hub collapsed: a click selects it and never expands it', async () => {
    const stats = graphStructure(demo.db.raw, 5)
    const hub = stats.hubs[0]!
    expect(hub).toBeDefined()
    const load = realLoad()
    const sentence = neighbourhood(demo.db.raw, hub.id, { depth: 1, limit: 5 }).nodes.find((n) => n.kind === 'sentence')!
    const w = await mountExplorer({ load, search: noSearch, initialCenter: sentence.id })
    const hubNode = w.get(`[data-node-id="${hub.id}"]`)
    expect(hubNode.classes()).toContain('node-hub')
    await hubNode.trigger('click')
    await flushPromises()
    expect(load.calls).toEqual([sentence.id])
    expect(w.get('[data-test="graph-hub-note"]').text()).toContain('collapsed')
    // A plain entity still expands on click.
    const plain = w.findAll('[data-test="graph-node"][data-kind="entity"]').find((n) => !n.classes().includes('node-hub'))!
    await plain.trigger('click')
    await flushPromises()
    expect(load.calls).toEqual([sentence.id, plain.attributes('data-node-id')])
  })

  it('filters what it draws by node kind, entity type and edge kind', async () => {
    const load = realLoad()
    const entity = demo.db.raw.prepare("select id from entities where type = 'PERSON' and lookup_ok = 1 order by id limit 1").pluck().get() as number
    const w = await mountExplorer({ load, search: noSearch, initialCenter: `e:${entity}` })
    const kinds = (): string[] => [...new Set(w.findAll('[data-test="graph-node"]').map((n) => n.attributes('data-kind')!))].sort()
    const edgeKinds = (): string[] => [...new Set(w.findAll('[data-test="graph-edge"]').map((e) => e.attributes('data-edge-kind')!))].sort()
    expect(kinds()).toEqual(['entity', 'sentence'])
    expect(edgeKinds()).toContain('mention')
    await w.get('[data-filter-kind="sentence"]').setValue(false)
    // Only the centre is left: it always shows.
    expect(nodeIds(w)).toEqual([`e:${entity}`])
    expect(w.get('[data-test="graph-hidden"]').text()).toMatch(/^\d+ hidden by filters$/)
    await w.get('[data-filter-kind="sentence"]').setValue(true)
    await w.get('[data-filter-edge="mention"]').setValue(false)
    expect(edgeKinds()).not.toContain('mention')
    expect(kinds()).toEqual(['entity', 'sentence'])
    await w.get('[data-filter-type="PERSON"]').setValue(false)
    expect(w.findAll('[data-test="graph-node"][data-kind="entity"]').map((n) => n.attributes('data-node-id'))).toEqual([`e:${entity}`])
  })

  it('GraphStats shows counts by type (untyped names labelled as such), degrees, components and hubs', async () => {
    const stats = { ...graphStructure(demo.db.raw, 5), hubMinDegree: HUB_MIN_DEGREE }
    const w = mount(GraphStats, { props: { stats } })
    expect(w.get('[data-test="stats-entities"]').text()).toBe(stats.counts.entities.total.toLocaleString('en'))
    expect(w.get('[data-stats-type="NAME"]').text()).toContain('proper name (untyped)')
    expect(w.findAll('[data-test="stats-degree"]')).toHaveLength(stats.degrees.length)
    expect(w.findAll('[data-test="stats-component"]')).toHaveLength(stats.components.length)
    const hubs = w.findAll('[data-test="stats-hub"]')
    expect(hubs.length).toBe(stats.hubs.length)
    await hubs[0]!.get('button').trigger('click')
    expect(w.emitted('open')).toEqual([[stats.hubs[0]!.id]])
    w.unmount()
  })
})
