import type { GraphEdge, GraphNode } from '../../../preload/contract'
import { useApi } from '../api'
import { errorMessage } from '../api/errors'
import type { Episode } from './trajectory'

/** The graph around an episode's path: the nodes it visited, the gold sentences, and the nodes joining two of them. */
export interface PathGraph {
  nodes: GraphNode[]
  edges: GraphEdge[]
  /** Nodes of the path or the gold the graph could not show (a rebuilt graph, a missing node), one line each. */
  unavailable: string[]
}

/** Neighbours fetched around each path or gold node; joining nodes kept at most. */
const NEIGHBOURS_PER_NODE = 40
const MAX_CENTRES = 24
const MAX_CONNECTORS = 24

/**
 * The graph around the episode's path: each visited node's and each gold sentence's neighbourhood,
 * kept to those nodes and the ones that join two of them (a shared entity, a paragraph), with every
 * edge among what is kept. `noneFound` hears why when the graph has none of the episode's nodes.
 */
export async function pathGraph(w: string | null, ep: Episode, noneFound: (message: string) => void): Promise<PathGraph> {
  if (!w) return { nodes: [], edges: [], unavailable: [] }
  const wanted = [...new Set([...ep.path.map((p) => p.node), ...ep.goldEvidence.sentences.flatMap((s) => (s.sentenceId !== null ? [`s:${s.sentenceId}`] : []))])]
  const centres = wanted.slice(0, MAX_CENTRES)
  const results = await Promise.allSettled(centres.map((center) => useApi().call('graph.neighbourhood', { workspaceId: w, center, depth: 1, limit: NEIGHBOURS_PER_NODE })))
  const nodes = new Map<string, GraphNode>()
  const edges = new Map<string, GraphEdge>()
  const unavailable: string[] = wanted.slice(MAX_CENTRES).map((id) => `${id}: more path and gold nodes than the graph view shows`)
  results.forEach((r, i) => {
    if (r.status === 'rejected') {
      unavailable.push(`${centres[i]}: ${errorMessage(r.reason)}`)
      return
    }
    for (const n of r.value.nodes) nodes.set(n.id, n)
    for (const e of r.value.edges) edges.set(`${e.source}|${e.target}|${e.kind}`, e)
  })
  if (unavailable.length === centres.length && centres.length > 0) noneFound(`The graph has none of this episode's nodes (${unavailable[0]})`)
  const kept = new Set(centres.filter((id) => nodes.has(id)))
  for (const id of connectors(edges.values(), kept)) kept.add(id)
  return {
    nodes: [...kept].map((id) => nodes.get(id)).filter((n): n is GraphNode => n !== undefined),
    edges: [...edges.values()].filter((e) => kept.has(e.source) && kept.has(e.target)),
    unavailable,
  }
}

/** Joining nodes: adjacent to at least two kept nodes, those joining most first. */
function connectors(edges: Iterable<GraphEdge>, kept: ReadonlySet<string>): string[] {
  const joins = new Map<string, Set<string>>()
  for (const e of edges) {
    for (const [a, b] of [[e.source, e.target], [e.target, e.source]] as const) {
      if (kept.has(a) && !kept.has(b)) {
        let set = joins.get(b)
        if (!set) joins.set(b, (set = new Set()))
        set.add(a)
      }
    }
  }
  return [...joins].filter(([, by]) => by.size >= 2).sort((x, y) => y[1].size - x[1].size || x[0].localeCompare(y[0])).slice(0, MAX_CONNECTORS).map(([id]) => id)
}
