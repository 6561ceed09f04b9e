import { forceCollide, forceLink, forceManyBody, forceSimulation, forceX, forceY, scalePoint, type SimulationLinkDatum, type SimulationNodeDatum } from 'd3'
import { nodeRadius } from '../graph/force-layout'
import type { GraphEdge, GraphNode, Point, Positions } from '../graph/types'

type SimNode = SimulationNodeDatum & { id: string; kind: GraphNode['kind']; degree: number; order: number | null }
type SimLink = SimulationLinkDatum<SimNode>

export interface PathLayoutInput {
  nodes: Pick<GraphNode, 'id' | 'kind' | 'degree'>[]
  edges: Pick<GraphEdge, 'source' | 'target'>[]
  /** Node ids in the order the episode first visited them. */
  order: string[]
  /** Width the visited nodes are spread over, left to right. */
  width: number
}

/**
 * Where each node of an episode's path graph sits: the visited nodes spread left to right in visit
 * order (a d3 point scale), each pulled there by d3-force; gold and joining nodes settle around them by
 * their links. The simulation runs to rest synchronously from d3's deterministic start, so the same
 * graph is always drawn the same way.
 */
export function pathLayout(input: PathLayoutInput): Positions {
  const x = scalePoint<string>().domain(input.order).range([-input.width / 2, input.width / 2]).padding(0.5)
  const rank = new Map(input.order.map((id, i) => [id, i]))
  const nodes: SimNode[] = input.nodes.map((n) => ({ id: n.id, kind: n.kind, degree: n.degree ?? 0, order: rank.get(n.id) ?? null }))
  const known = new Set(nodes.map((n) => n.id))
  const links: SimLink[] = input.edges.filter((e) => known.has(e.source) && known.has(e.target)).map((e) => ({ source: e.source, target: e.target }))
  // Consecutive visits are linked too, so the path reads as one line.
  for (let i = 1; i < input.order.length; i++) if (known.has(input.order[i - 1]!) && known.has(input.order[i]!)) links.push({ source: input.order[i - 1]!, target: input.order[i]! })
  const simulation = forceSimulation<SimNode>(nodes)
    .stop()
    .force('link', forceLink<SimNode, SimLink>(links).id((d) => d.id).distance(60).strength(0.3))
    .force('charge', forceManyBody<SimNode>().strength(-140).distanceMax(300))
    .force('collide', forceCollide<SimNode>((d) => nodeRadius(d.kind, d.degree) + 10))
    .force('x', forceX<SimNode>((d) => (d.order !== null ? (x(input.order[d.order]!) ?? 0) : 0)).strength((d) => (d.order !== null ? 0.9 : 0.02)))
    .force('y', forceY<SimNode>(0).strength((d) => (d.order !== null ? 0.25 : 0.05)))
  const ticks = Math.ceil(Math.log(simulation.alphaMin()) / Math.log(1 - simulation.alphaDecay()))
  simulation.tick(ticks)
  const out: Positions = {}
  for (const n of nodes) out[n.id] = { x: n.x ?? 0, y: n.y ?? 0 }
  return out
}

/** The bounding box of the positions, padded, as an SVG viewBox. */
export function viewBoxOf(points: Point[], pad: number, minWidth: number, minHeight: number): string {
  if (points.length === 0) return `${-minWidth / 2} ${-minHeight / 2} ${minWidth} ${minHeight}`
  const xs = points.map((p) => p.x)
  const ys = points.map((p) => p.y)
  let x0 = Math.min(...xs) - pad
  let x1 = Math.max(...xs) + pad
  let y0 = Math.min(...ys) - pad
  let y1 = Math.max(...ys) + pad
  if (x1 - x0 < minWidth) [x0, x1] = [(x0 + x1 - minWidth) / 2, (x0 + x1 + minWidth) / 2]
  if (y1 - y0 < minHeight) [y0, y1] = [(y0 + y1 - minHeight) / 2, (y0 + y1 + minHeight) / 2]
  return `${x0.toFixed(1)} ${y0.toFixed(1)} ${(x1 - x0).toFixed(1)} ${(y1 - y0).toFixed(1)}`
}
