import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { CorpusStats, Job, RouteInput, RouteOutput, SourceFile } from '../../../preload/contract'
import { useApi } from '../api'
import { errorMessage } from '../api/errors'
import { attemptInto } from './attempt'
import { liveSubscriptions } from './live'
import { useJobsStore } from './jobs'

type SearchResult = RouteOutput<'corpus.search'>
type GrepResult = RouteOutput<'corpus.grep'>
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
      searchError.value = null
      grep.value = null
      grepError.value = null
    }
    await refresh()
  }

  async function ingest(params: IngestInput): Promise<Job | undefined> {
    const id = workspaceId.value
    if (!id) return undefined
    return useJobsStore().start({ kind: 'corpus.ingest', workspaceId: id, params })
  }

  /** Why the last search failed (shown in the search panel); the results are cleared with it, never left from another query or mode. */
  const searchError = ref<string | null>(null)
  const grep = ref<GrepResult | null>(null)
  const grepping = ref(false)
  const grepError = ref<string | null>(null)
  let searchSeq = 0
  let grepSeq = 0

  async function runSearch(query: string, mode: SearchMode, k = 10): Promise<void> {
    const id = workspaceId.value
    if (!id) return
    const mine = ++searchSeq
    searching.value = true
    try {
      const out = await useApi().call('corpus.search', { workspaceId: id, query, k, mode })
      if (mine !== searchSeq) return
      search.value = out
      searchError.value = null
    } catch (err) {
      if (mine !== searchSeq) return
      search.value = null
      const message = errorMessage(err)
      searchError.value =
        mode !== 'bm25' && /embedding model|vectors/i.test(message)
          ? `${message}. No embedding model yet: embed the chunks with a GGUF embedding model under "Dense vectors" (or register one on the Models page), then search again. BM25 works without one.`
          : message
    } finally {
      if (mine === searchSeq) searching.value = false
    }
  }

  /** Regex over chunk text, capped by results and time; a bad pattern clears the results and says why. */
  async function runGrep(pattern: string, options: { caseInsensitive?: boolean; maxResults?: number } = {}): Promise<void> {
    const id = workspaceId.value
    if (!id) return
    const mine = ++grepSeq
    grepping.value = true
    try {
      const out = await useApi().call('corpus.grep', { workspaceId: id, pattern, flags: options.caseInsensitive === false ? '' : 'i', maxResults: options.maxResults ?? 100 })
      if (mine !== grepSeq) return
      grep.value = out
      grepError.value = null
    } catch (err) {
      if (mine !== grepSeq) return
      grep.value = null
      grepError.value = errorMessage(err)
    } finally {
      if (mine === grepSeq) grepping.value = false
    }
  }

  return { workspaceId, stats, files, search, searching, searchError, grep, grepping, grepError, error, live, load, refresh, ingest, runSearch, runGrep }
})
