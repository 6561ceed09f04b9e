import { GraphError, type NodeKind } from './types'

const PREFIX: Record<NodeKind, string> = { paragraph: 'p', sentence: 's', entity: 'e' }
const KIND: Record<string, NodeKind> = { p: 'paragraph', s: 'sentence', e: 'entity' }

export interface NodeRef {
  kind: NodeKind
  /** Row id in chunks, sentences or entities. */
  rowId: number
}

export function nodeId(kind: NodeKind, rowId: number): string {
  return `${PREFIX[kind]}:${rowId}`
}

/** Parses `p:12`, `s:7`, `e:3`; anything else is a GraphError('bad-node-id'). */
export function parseNodeId(id: string): NodeRef {
  const match = /^([pse]):([1-9]\d{0,15})$/.exec(id)
  const kind = match ? KIND[match[1]!] : undefined
  const rowId = match ? Number(match[2]) : NaN
  if (!kind || !Number.isSafeInteger(rowId)) {
    throw new GraphError('bad-node-id', `Not a graph node id: "${id.slice(0, 60)}" (expected p:<paragraph>, s:<sentence> or e:<entity>)`)
  }
  return { kind, rowId }
}
