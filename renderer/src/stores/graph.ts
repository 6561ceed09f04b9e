import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { GraphNode, GraphStructure, Subgraph } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'

/**
 * The Graph page's data: neighbourhoods, entity search and the graph statistics of one workspace.
 * GraphExplorer calls the first two and shows their errors itself (it keeps stale answers apart by
 * sequence numbers); statistics errors land in `statsError` for ErrorNote.
 */
export const useGraphStore = defineStore('graph', () => {
  const workspaceId = ref<string | null>(null)
  const stats = ref<GraphStructure | null>(null)
  const statsError = ref<string | null>(null)
  const attempt = attemptInto(statsError)

  const open = (id: string): void => {
    if (workspaceId.value !== id) stats.value = null
    workspaceId.value = id
  }
  const current = (): string => {
    if (!workspaceId.value) throw new Error('No workspace open')
    return workspaceId.value
  }
  const neighbourhood = (center: string): Promise<Subgraph> => useApi().call('graph.neighbourhood', { workspaceId: current(), center, depth: 1, limit: 150 })
  const searchNodes = (text: string): Promise<GraphNode[]> => useApi().call('graph.searchNodes', { workspaceId: current(), text, limit: 20 })
  const loadStats = async (): Promise<void> => {
    const id = current()
    const result = await attempt(() => useApi().call('graph.stats', { workspaceId: id, top: 10 }))
    if (result !== undefined && workspaceId.value === id) stats.value = result
  }

  return { workspaceId, stats, statsError, open, neighbourhood, searchNodes, loadStats }
})
