import { z } from 'zod'
import { route } from './define'
import { OutputPath } from './output-path'

const WorkspaceId = z.string().min(1).max(64)
const NodeId = z.string().regex(/^[pse]:\d{1,12}$/, 'node ids look like p:12 (paragraph), s:34 (sentence) or e:56 (entity)')

export const GraphNode = z.object({
  id: z.string(),
  kind: z.enum(['paragraph', 'sentence', 'entity']),
  label: z.string(),
  title: z.string().optional(),
  type: z.string().optional(),
  lookupOk: z.boolean().optional(),
  degree: z.number().optional(),
  /** A date or number with many mentions: shown collapsed, never expanded by a click. */
  hub: z.boolean().optional(),
})
export const GraphEdge = z.object({
  source: z.string(),
  target: z.string(),
  kind: z.enum(['mention', 'next', 'in', 'neighbour']),
  score: z.number().optional(),
})
export const Subgraph = z.object({ nodes: z.array(GraphNode), edges: z.array(GraphEdge), truncated: z.boolean() })

/** Sizes by kind and type, entity degree distribution, value hubs and the largest components. */
export const GraphStructure = z.object({
  counts: z.object({
    documents: z.number(),
    chunks: z.number(),
    sentences: z.number(),
    tokens: z.number(),
    entities: z.object({ total: z.number(), lookupOk: z.number(), byType: z.record(z.string(), z.number()) }),
    mentions: z.number(),
    edges: z.object({ mention: z.number(), next: z.number(), in: z.number(), neighbour: z.number(), total: z.number() }),
    nodes: z.number(),
  }),
  degrees: z.array(z.object({ min: z.number(), max: z.number(), entities: z.number() })),
  maxDegree: z.number(),
  hubs: z.array(z.object({ id: z.string(), name: z.string(), type: z.string(), degree: z.number() })),
  /** The entity the explorer shows before any search: the highest-degree one that is not a date or number (never a hub); null for an empty graph. */
  start: z.object({ id: z.string(), name: z.string(), type: z.string(), degree: z.number() }).nullable(),
  components: z.array(z.object({ nodes: z.number(), documents: z.number(), entities: z.number(), example: z.string() })),
  componentCount: z.number(),
  /** Mentions needed for a date or number to count as a hub. */
  hubMinDegree: z.number(),
})

/** Parameters of a `graph.export` job: the whole graph, or a node's neighbourhood, as GraphML for Gephi. */
export const GraphExportParams = z
  .object({
    center: NodeId.optional(),
    /**
     * Absolute path of the file to write, in an existing folder inside the data folder or inside a
     * folder the user picked with the native dialog (desktop app); anything else is refused, and no
     * folder is created. Default (recommended): the workspace's exports folder; in browser mode the
     * finished file is downloaded from `/api/download/<job id>`.
     */
    path: OutputPath.refine((p) => /[^\\/]\.graphml$/.test(p), 'the file name must end in .graphml').optional(),
  })
  .strict()

export const graphRoutes = {
  'graph.neighbourhood': route(
    'A node and its neighbours within 1 or 2 hops, capped',
    z.object({ workspaceId: WorkspaceId, center: NodeId, depth: z.union([z.literal(1), z.literal(2)]).default(1), limit: z.number().int().min(1).max(2000).default(150) }).strict(),
    Subgraph,
  ),
  'graph.stats': route(
    'Graph statistics: node counts by kind and entity type, edge counts by kind, entity degree distribution, value hubs, largest components',
    z.object({ workspaceId: WorkspaceId, top: z.number().int().min(1).max(100).default(10) }).strict(),
    GraphStructure,
  ),
  'graph.searchNodes': route(
    'Entities (and node ids) matching a text',
    z.object({ workspaceId: WorkspaceId, text: z.string().max(200), limit: z.number().int().min(1).max(200).default(20) }).strict(),
    z.array(GraphNode),
  ),
}

export type GraphNode = z.infer<typeof GraphNode>
export type GraphEdge = z.infer<typeof GraphEdge>
export type Subgraph = z.infer<typeof Subgraph>
export type GraphStructure = z.infer<typeof GraphStructure>
