import type { GraphEdge, GraphNode, Point, Positions, Subgraph } from './types'

/** The explorer's current graph: nodes in the order they arrived, edges keyed to drop repeats. */
export interface ViewGraph {
  nodes: Map<string, GraphNode>
  edges: Map<string, GraphEdge>
}

export const edgeKey = (e: GraphEdge): string => `${e.kind}|${e.source}|${e.target}`

export function emptyView(): ViewGraph {
  return { nodes: new Map(), edges: new Map() }
}

/**
 * Adds a loaded neighbourhood to the view without exceeding `cap` nodes. The backend lists nodes
 * best first (centre, then by priority), so when room runs out the best newcomers are kept.
 * Edges come in only when both ends are in the view. Mutates `view`.
 */
export function mergeInto(view: ViewGraph, sub: Subgraph, cap: number): { added: string[]; dropped: number } {
  const added: string[] = []
  let dropped = 0
  for (const node of sub.nodes) {
    const known = view.nodes.get(node.id)
    if (known) {
      view.nodes.set(node.id, { ...known, ...node })
    } else if (view.nodes.size < cap) {
      view.nodes.set(node.id, node)
      added.push(node.id)
    } else {
      dropped++
    }
  }
  for (const edge of sub.edges) {
    if (view.nodes.has(edge.source) && view.nodes.has(edge.target)) view.edges.set(edgeKey(edge), edge)
  }
  return { added, dropped }
}

/** Start positions on a small ring around the node they came from, so an expansion grows out of it. */
export function placeAround(anchor: Point, ids: readonly string[], radius = 40): Positions {
  const out: Positions = {}
  ids.forEach((id, i) => {
    const angle = (2 * Math.PI * i) / Math.max(ids.length, 1) + 0.3
    out[id] = { x: anchor.x + radius * Math.cos(angle), y: anchor.y + radius * Math.sin(angle) }
  })
  return out
}

/** Smallest box around the positions, or null when there are none. */
export function bounds(positions: Positions): { minX: number; minY: number; maxX: number; maxY: number } | null {
  const points = Object.values(positions)
  if (points.length === 0) return null
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity]
  for (const p of points) {
    minX = Math.min(minX, p.x)
    minY = Math.min(minY, p.y)
    maxX = Math.max(maxX, p.x)
    maxY = Math.max(maxY, p.y)
  }
  return { minX, minY, maxX, maxY }
}
