/** Shapes of the paragraph-sentence-entity graph as the browser and exports see it. */

export type NodeKind = 'paragraph' | 'sentence' | 'entity'
export type EdgeKind = 'mention' | 'next' | 'in' | 'neighbour'

export interface GraphNode {
  /** `p:<chunk id>`, `s:<sentence id>` or `e:<entity id>`. */
  id: string
  kind: NodeKind
  /** Short text for a node label. */
  label: string
  /** Longer text for hover and selection: the sentence, a paragraph excerpt, an entity's type and name. */
  title?: string
  /** Entity type (PERSON, ORG, DATE, ...); entities only. */
  type?: string
  /** False for entities that are never LOOKUP targets; entities only. */
  lookupOk?: boolean
  /** Edges incident to the node in the whole graph (entities: mentioned sentences plus their own neighbour links). */
  degree?: number
  /** A value entity (date, number) with at least HUB_MIN_DEGREE mentions: the explorer shows it collapsed. */
  hub?: boolean
}

export interface GraphEdge {
  source: string
  target: string
  kind: EdgeKind
  /** Cosine of a neighbour link. */
  score?: number
}

export interface Subgraph {
  nodes: GraphNode[]
  edges: GraphEdge[]
  /** True when the node cap left reachable nodes out. */
  truncated: boolean
}

export type GraphErrorCode = 'bad-node-id' | 'not-found' | 'bad-argument'

export class GraphError extends Error {
  override readonly name: string = 'GraphError'
  constructor(
    readonly code: GraphErrorCode,
    message: string,
  ) {
    super(message)
  }
}

/** Long work reports through these; both map onto a job context (progress, throwIfCancelled). */
export interface WorkHooks {
  onProgress?: (done: number, total: number, stage: string) => void
  /** Called between units of work; throw from it to cancel. */
  checkpoint?: () => void
}
