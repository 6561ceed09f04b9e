import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { CorpusStats, Job, RouteInput, RouteOutput, SourceFile } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'
import { liveSubscriptions } from './live'
import { useJobsStore } from './jobs'

type SearchResult = RouteOutput<'corpus.search'>
type SearchMode = RouteInput<'corpus.search'>['mode']
export type IngestInput = Extract<RouteInput<'job.start'>, { kind: 'corpus.ingest' }>['params']

/** One workspace's corpus: counts, files, search; refreshed (while a page holds `live()`) when an ingest job of this workspace ends. */
export const useCorpusStore = defineStore('corpus', () => {
  const workspaceId = ref<string | null>(null)
  const stats = ref<CorpusStats | null>(null)
  const files = ref<SourceFile[]>([])
  const search = ref<SearchResult | null>(null)
  const searching = ref(false)
  const error = ref<string | null>(null)

  const attempt = attemptInto(error)

  const { live } = liveSubscriptions(() => [
    useApi().on('job.status', (job: Job) => {
      if (job.kind === 'corpus.ingest' && job.workspaceId === workspaceId.value && job.status !== 'queued' && job.status !== 'running') void refresh()
    }),
  ])

  async function refresh(): Promise<void> {
    const id = workspaceId.value
    if (!id) return
    await attempt(async () => {
      const [s, f] = await Promise.all([useApi().call('corpus.stats', { workspaceId: id }), useApi().call('corpus.files', { workspaceId: id })])
      if (workspaceId.value !== id) return
      stats.value = s
      files.value = f
    })
  }

  async function load(id: string): Promise<void> {
    if (workspaceId.value !== id) {
      workspaceId.value = id
      stats.value = null
      files.value = []
      search.value = null
    }
    await refresh()
  }

  async function ingest(params: IngestInput): Promise<Job | undefined> {
    const id = workspaceId.value
    if (!id) return undefined
    return useJobsStore().start({ kind: 'corpus.ingest', workspaceId: id, params })
  }

  async function runSearch(query: string, mode: SearchMode, k = 10): Promise<void> {
    const id = workspaceId.value
    if (!id) return
    searching.value = true
    const out = await attempt(() => useApi().call('corpus.search', { workspaceId: id, query, k, mode }))
    searching.value = false
    if (out) search.value = out
  }

  return { workspaceId, stats, files, search, searching, error, live, load, refresh, ingest, runSearch }
})
