import type BetterSqlite3 from 'better-sqlite3'
import { inducedEdges } from './edges'
import { byPriority, neighbourCandidates, type Candidate, type Excluded } from './expand'
import { nodeId, parseNodeId, type NodeRef } from './node-id'
import { loadNodes } from './nodes'
import { idList } from './statements'
import { GraphError, type GraphNode, type NodeKind, type Subgraph } from './types'

export interface NeighbourhoodOptions {
  /** Hops from the centre (default 1). */
  depth?: 1 | 2
  /** Most nodes returned, the centre included. */
  limit: number
}

export const MAX_NEIGHBOURHOOD_NODES = 5000

/**
 * The centre node and what lies within `depth` hops of it, breadth first. When a hop offers more
 * nodes than the cap leaves room for, the best candidates of the whole hop win (see byPriority) and
 * `truncated` is set. Edges are every graph edge among the returned nodes, so two sentences that
 * mention the same entity show that. Nodes come centre first, then in the order they were admitted.
 */
export function neighbourhood(raw: BetterSqlite3.Database, center: string, options: NeighbourhoodOptions): Subgraph {
  const depth = options.depth ?? 1
  if (depth !== 1 && depth !== 2) throw new GraphError('bad-argument', `depth must be 1 or 2, got ${String(depth)}`)
  const limit = options.limit
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_NEIGHBOURHOOD_NODES) {
    throw new GraphError('bad-argument', `limit must be an integer from 1 to ${MAX_NEIGHBOURHOOD_NODES}, got ${String(limit)}`)
  }
  const centre = parseNodeId(center)
  if (!loadNodes(raw, centre.kind, [centre.rowId]).has(centre.rowId)) {
    throw new GraphError('not-found', `No ${centre.kind} ${center} in this workspace's graph`)
  }

  // Reads in one snapshot so a concurrent graph rebuild cannot hand back edges to vanished nodes.
  return raw.transaction(() => {
    const admitted: NodeRef[] = [centre]
    const seen: Record<NodeKind, Set<number>> = { paragraph: new Set(), sentence: new Set(), entity: new Set() }
    seen[centre.kind].add(centre.rowId)
    let frontier: NodeRef[] = [centre]
    let truncated = false

    for (let hop = 1; hop <= depth && frontier.length > 0; hop++) {
      const room = limit - admitted.length
      if (room === 0) {
        // Full: all that is left to learn is whether anything was cut off.
        truncated ||= frontier.some((ref) => neighbourCandidates(raw, ref, excludedOf(seen), 1).length > 0)
        break
      }
      // One more than the room: finding it is how we know the cap cut something off.
      const perNode = room + 1
      const excluded = excludedOf(seen)
      const best = new Map<string, Candidate>()
      for (const ref of frontier) {
        for (const c of neighbourCandidates(raw, ref, excluded, perNode)) {
          const key = nodeId(c.ref.kind, c.ref.rowId)
          const known = best.get(key)
          if (!known || byPriority(c, known) < 0) best.set(key, c)
        }
      }
      const ranked = [...best.values()].sort(byPriority)
      if (ranked.length > room) truncated = true
      frontier = ranked.slice(0, room).map((c) => c.ref)
      for (const ref of frontier) {
        admitted.push(ref)
        seen[ref.kind].add(ref.rowId)
      }
    }

    const rows = { paragraph: [...seen.paragraph], sentence: [...seen.sentence], entity: [...seen.entity] }
    const byKind = {
      paragraph: loadNodes(raw, 'paragraph', rows.paragraph),
      sentence: loadNodes(raw, 'sentence', rows.sentence),
      entity: loadNodes(raw, 'entity', rows.entity),
    }
    const nodes: GraphNode[] = admitted.map((ref) => byKind[ref.kind].get(ref.rowId)!)
    return { nodes, edges: inducedEdges(raw, rows), truncated }
  })()
}

function excludedOf(seen: Record<NodeKind, Set<number>>): Excluded {
  return { paragraph: idList(seen.paragraph), sentence: idList(seen.sentence), entity: idList(seen.entity) }
}
