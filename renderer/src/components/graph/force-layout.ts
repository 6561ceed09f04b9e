import { forceCollide, forceLink, forceManyBody, forceSimulation, forceX, forceY, type SimulationLinkDatum, type SimulationNodeDatum } from 'd3'
import type { EdgeKind, LayoutRequest, NodeKind, Positions } from './types'

type SimNode = SimulationNodeDatum & { id: string; kind: NodeKind; degree: number }
type SimLink = SimulationLinkDatum<SimNode> & { kind: EdgeKind }

// Sentences sit close to their paragraph and their neighbours in reading order; entity links are looser.
const LINK_DISTANCE: Record<EdgeKind, number> = { in: 36, next: 30, mention: 55, neighbour: 70 }
const LINK_STRENGTH: Record<EdgeKind, number> = { in: 0.9, next: 0.7, mention: 0.35, neighbour: 0.25 }
const FRAME_EVERY = 25

export function nodeRadius(kind: NodeKind, degree = 0): number {
  if (kind === 'paragraph') return 9
  if (kind === 'sentence') return 5
  return Math.min(16, 5 + 2.2 * Math.sqrt(degree))
}

/**
 * Runs a d3-force simulation to rest, synchronously, without timers (the same code runs in the
 * layout worker and, where workers are unavailable, on the main thread).
 */
export function computeLayout(request: LayoutRequest, onFrame?: (positions: Positions) => void): Positions {
  const nodes: SimNode[] = request.nodes.map((n) => {
    const node: SimNode = { id: n.id, kind: n.kind, degree: n.degree ?? 0 }
    if (n.x !== undefined && n.y !== undefined) {
      node.x = n.x
      node.y = n.y
    }
    if (n.pinned && n.x !== undefined && n.y !== undefined) {
      node.fx = n.x
      node.fy = n.y
    }
    return node
  })
  const known = new Set(nodes.map((n) => n.id))
  const links: SimLink[] = request.links.filter((l) => known.has(l.source) && known.has(l.target)).map((l) => ({ source: l.source, target: l.target, kind: l.kind }))
  const simulation = forceSimulation<SimNode>(nodes)
    .stop()
    .force(
      'link',
      forceLink<SimNode, SimLink>(links)
        .id((d) => d.id)
        .distance((l) => LINK_DISTANCE[l.kind])
        .strength((l) => LINK_STRENGTH[l.kind]),
    )
    .force('charge', forceManyBody<SimNode>().strength((d) => (d.kind === 'entity' ? -120 : -60)).distanceMax(420))
    .force('collide', forceCollide<SimNode>((d) => nodeRadius(d.kind, d.degree) + 3))
    // Weak pull to the origin keeps disconnected pieces on screen.
    .force('x', forceX<SimNode>(0).strength(0.04))
    .force('y', forceY<SimNode>(0).strength(0.04))
  if (request.warm) simulation.alpha(0.4)
  const ticks = Math.ceil(Math.log(simulation.alphaMin() / simulation.alpha()) / Math.log(1 - simulation.alphaDecay()))
  const snapshot = (): Positions => {
    const out: Positions = {}
    for (const n of nodes) out[n.id] = { x: n.x ?? 0, y: n.y ?? 0 }
    return out
  }
  for (let i = 1; i <= ticks; i++) {
    simulation.tick()
    if (onFrame && i % FRAME_EVERY === 0 && i < ticks) onFrame(snapshot())
  }
  return snapshot()
}
