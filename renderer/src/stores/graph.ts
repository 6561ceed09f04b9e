import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { GraphNode, Subgraph } from '../../../preload/contract'
import { useApi } from '../api'

/**
 * The Graph page's data: neighbourhoods and entity search of one workspace. GraphExplorer calls these
 * and shows their errors itself (it keeps stale answers apart by sequence numbers).
 */
export const useGraphStore = defineStore('graph', () => {
  const workspaceId = ref<string | null>(null)

  const open = (id: string): void => {
    workspaceId.value = id
  }
  const current = (): string => {
    if (!workspaceId.value) throw new Error('No workspace open')
    return workspaceId.value
  }
  const neighbourhood = (center: string): Promise<Subgraph> => useApi().call('graph.neighbourhood', { workspaceId: current(), center, depth: 1, limit: 150 })
  const searchNodes = (text: string): Promise<GraphNode[]> => useApi().call('graph.searchNodes', { workspaceId: current(), text, limit: 20 })

  return { workspaceId, open, neighbourhood, searchNodes }
})
