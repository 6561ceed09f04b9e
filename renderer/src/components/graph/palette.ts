import type { EdgeKind, GraphNode, NodeKind } from './types'

export const KIND_COLOURS: Record<NodeKind, string> = { paragraph: '#8e6cc9', sentence: '#8793a8', entity: '#2f6fde' }

/** OntoNotes name types; value types (DATE, CARDINAL, ...) and NORP are never LOOKUP targets and draw muted. */
export const TYPE_COLOURS: Record<string, string> = {
  PERSON: '#2f6fde',
  ORG: '#e07b24',
  GPE: '#1f8a4c',
  LOC: '#17a2a2',
  FAC: '#a0522d',
  EVENT: '#c8372d',
  WORK_OF_ART: '#c2459b',
  LAW: '#7a6a2e',
  NAME: '#4f6b95',
}

/** How a type reads in the legend and details; a type without an entry reads as itself. */
export const TYPE_LABELS: Record<string, string> = { NAME: 'proper name (untyped)', WORK_OF_ART: 'WORK_OF_ART (title)' }
export const typeLabel = (type: string): string => TYPE_LABELS[type] ?? type
export const OTHER_TYPE_COLOUR = '#5f7187'
export const MUTED_COLOUR = '#cdd2db'

export function isMuted(node: GraphNode): boolean {
  return node.kind === 'entity' && node.lookupOk === false
}

export function nodeFill(node: GraphNode): string {
  if (node.kind !== 'entity') return KIND_COLOURS[node.kind]
  if (isMuted(node)) return MUTED_COLOUR
  return TYPE_COLOURS[node.type ?? ''] ?? OTHER_TYPE_COLOUR
}

export const EDGE_LABELS: Record<EdgeKind, string> = {
  mention: 'mentions (sentence → entity)',
  next: 'next sentence',
  in: 'in paragraph',
  neighbour: 'entity neighbour (cosine ≥ 0.80)',
}

export const NODE_LABELS: Record<NodeKind, string> = { paragraph: 'Paragraph', sentence: 'Sentence', entity: 'Entity' }

/** Stroke width of a neighbour link grows with its cosine (0.80 -> 1.5, 1.0 -> 4). */
export function edgeWidth(kind: EdgeKind, score?: number): number {
  if (kind === 'neighbour') return 1.5 + 12.5 * Math.max(0, (score ?? 0.8) - 0.8)
  return kind === 'mention' ? 1 : 1.3
}
