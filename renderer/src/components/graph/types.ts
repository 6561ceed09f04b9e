/**
 * Graph shapes the explorer draws, from the API contract (type-only: no runtime code crosses over).
 * Node ids are `p:<chunk>`, `s:<sentence>`, `e:<entity>`.
 */
import type { GraphEdge, GraphNode, Subgraph } from '../../../../preload/contract'

export type { GraphEdge, GraphNode, Subgraph }
export type NodeKind = GraphNode['kind']
export type EdgeKind = GraphEdge['kind']

export type LoadNeighbourhood = (center: string) => Promise<Subgraph>
export type SearchNodes = (text: string) => Promise<GraphNode[]>

export interface Point {
  x: number
  y: number
}

export type Positions = Record<string, Point>

export interface LayoutNode {
  id: string
  kind: NodeKind
  degree?: number
  /** Start position; absent for a node d3 should place itself. */
  x?: number
  y?: number
  /** Pinned (dragged) nodes stay where the user left them. */
  pinned?: boolean
}

export interface LayoutLink {
  source: string
  target: string
  kind: EdgeKind
}

export interface LayoutRequest {
  nodes: LayoutNode[]
  links: LayoutLink[]
  /** Start from a lower temperature: most nodes already sit well, only newcomers should travel. */
  warm?: boolean
}

/** Computes positions; `onFrame` may receive intermediate positions so the graph settles visibly. */
export interface LayoutEngine {
  run(request: LayoutRequest, onFrame?: (positions: Positions) => void): Promise<Positions>
  dispose(): void
}
