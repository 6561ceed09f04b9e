import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { ImportReport, Job, QuestionDetail, QuestionEdit, QuestionFilter, QuestionSetDetail, QuestionSplitSpec, RouteInput, RouteOutput } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'
import { liveSubscriptions } from './live'
import { pendingAction } from './pending'

export const QUESTION_PAGE = 50

type GenerateParams = Extract<RouteInput<'job.start'>, { kind: 'questions.generate' }>['params']

/** A sentence that can be picked as gold: from search results or from the document reader. */
export interface PickableSentence {
  sentenceId: number
  documentId: number
  chunkId: number
  ord: number
  title: string
  text: string
}

/**
 * The Questions page: question sets of one workspace, the selected set's detail (splits, the runs that
 * used them, its import report), a filtered page of questions with gold sentence text, a question's
 * episodes across runs; import, write, split and generate. Refreshed when a generation job of this
 * workspace ends (while the page holds `live()`).
 */
export const useQuestionsStore = defineStore('questions', () => {
  const workspaceId = ref<string | null>(null)
  const sets = ref<RouteOutput<'questions.sets'>>([])
  const setId = ref<number | null>(null)
  const detail = ref<QuestionSetDetail | null>(null)
  const questions = ref<QuestionDetail[]>([])
  const total = ref(0)
  const offset = ref(0)
  const filter = ref<QuestionFilter>({})
  const lastImport = ref<{ setId: number; report: ImportReport } | null>(null)
  const episodes = ref<{ questionId: number; list: RouteOutput<'questions.episodes'> } | null>(null)
  const generating = ref<Job | null>(null)
  const error = ref<string | null>(null)
  const attempt = attemptInto(error)
  const api = () => useApi()

  const { live } = liveSubscriptions(() => [
    useApi().on('job.status', (job: Job) => {
      if (job.kind !== 'questions.generate' || job.workspaceId !== workspaceId.value) return
      generating.value = job
      if (job.status === 'done' && job.result) void load(workspaceId.value!, job.result.setId)
    }),
  ])

  async function load(id: string, select?: number): Promise<void> {
    if (workspaceId.value !== id) {
      workspaceId.value = id
      sets.value = []
      setId.value = null
      detail.value = null
      questions.value = []
      total.value = 0
      offset.value = 0
      filter.value = {}
      lastImport.value = null
      episodes.value = null
      generating.value = null
    }
    const out = await attempt(() => api().call('questions.sets', { workspaceId: id }))
    if (!out || workspaceId.value !== id) return
    sets.value = out
    if (select !== undefined && out.some((s) => s.id === select)) {
      setId.value = select
      offset.value = 0
    } else if (!out.some((s) => s.id === setId.value)) setId.value = out[0]?.id ?? null
    await Promise.all([loadDetail(), loadPage()])
  }

  async function loadDetail(): Promise<void> {
    const id = workspaceId.value
    const set = setId.value
    if (!id || set === null) {
      detail.value = null
      return
    }
    const d = await attempt(() => api().call('questions.set', { workspaceId: id, setId: set }))
    if (d && workspaceId.value === id && setId.value === set) detail.value = d
  }

  async function loadPage(): Promise<void> {
    const id = workspaceId.value
    const set = setId.value
    if (!id || set === null) return
    const at = offset.value
    const f = { ...filter.value }
    const page = await attempt(() => api().call('questions.search', { workspaceId: id, setId: set, filter: f, offset: at, limit: QUESTION_PAGE }))
    if (!page || workspaceId.value !== id || setId.value !== set || offset.value !== at) return
    questions.value = page.questions
    total.value = page.total
  }

  async function selectSet(id: number | null): Promise<void> {
    setId.value = id
    offset.value = 0
    episodes.value = null
    await Promise.all([loadDetail(), loadPage()])
  }

  async function goTo(at: number): Promise<void> {
    offset.value = Math.max(0, at)
    await loadPage()
  }

  async function applyFilter(next: QuestionFilter): Promise<void> {
    // Empty fields filter nothing.
    filter.value = Object.fromEntries(Object.entries(next).filter(([, v]) => v !== undefined && v !== '' && v !== false)) as QuestionFilter
    offset.value = 0
    await loadPage()
  }

  async function importFile(name: string, fileName: string, content: string): Promise<boolean> {
    const id = workspaceId.value
    if (!id) return false
    const out = await attempt(() => api().call('questions.import', { workspaceId: id, name, content, fileName }))
    if (!out) return false
    lastImport.value = out
    await load(id, out.setId)
    return true
  }

  async function createSet(name: string): Promise<boolean> {
    const id = workspaceId.value
    if (!id) return false
    const out = await attempt(() => api().call('questions.createSet', { workspaceId: id, name }))
    if (!out) return false
    await load(id, out.setId)
    return true
  }

  async function split(spec: QuestionSplitSpec): Promise<boolean> {
    const id = workspaceId.value
    const set = setId.value
    if (!id || set === null) return false
    const d = await attempt(() => api().call('questions.split', { workspaceId: id, setId: set, spec }))
    if (!d) return false
    detail.value = d
    await loadPage()
    return true
  }

  async function save(questionId: number | undefined, edit: QuestionEdit): Promise<QuestionDetail | undefined> {
    const id = workspaceId.value
    const set = setId.value
    if (!id || set === null) return undefined
    const out = await attempt(() => api().call('questions.save', { workspaceId: id, setId: set, edit, ...(questionId !== undefined ? { questionId } : {}) }))
    if (out) await Promise.all([loadDetail(), loadPage(), refreshSets()])
    return out
  }

  async function remove(questionId: number): Promise<boolean> {
    const id = workspaceId.value
    const set = setId.value
    if (!id || set === null) return false
    const out = await attempt(() => api().call('questions.delete', { workspaceId: id, setId: set, questionId }))
    if (out) await Promise.all([loadDetail(), loadPage(), refreshSets()])
    return out !== undefined
  }

  async function refreshSets(): Promise<void> {
    const id = workspaceId.value
    if (!id) return
    const out = await attempt(() => api().call('questions.sets', { workspaceId: id }))
    if (out && workspaceId.value === id) sets.value = out
  }

  async function showEpisodes(questionId: number): Promise<void> {
    const id = workspaceId.value
    if (!id) return
    const list = await attempt(() => api().call('questions.episodes', { workspaceId: id, questionId }))
    if (list && workspaceId.value === id) episodes.value = { questionId, list }
  }

  /** Sentences of the chunks a search finds, to pick as gold. */
  async function findSentences(query: string, k = 5): Promise<PickableSentence[]> {
    const id = workspaceId.value
    if (!id || query.trim() === '') return []
    const out = await attempt(async () => {
      const { hits } = await api().call('corpus.search', { workspaceId: id, query, k, mode: 'bm25' })
      const chunks = await Promise.all(hits.map((h) => api().call('corpus.chunk', { workspaceId: id, chunkId: h.chunkId })))
      return chunks.flatMap((c) => c.sentences.map((s) => ({ sentenceId: s.sentenceId, documentId: c.documentId, chunkId: c.chunkId, ord: s.ord, title: c.title, text: s.text })))
    })
    return out ?? []
  }

  /** One sentence of a chunk (a link back from the document reader: ?addSentence=ID&chunk=ID). */
  async function sentenceOf(chunkId: number, sentenceId: number): Promise<PickableSentence | undefined> {
    const id = workspaceId.value
    if (!id) return undefined
    const c = await attempt(() => api().call('corpus.chunk', { workspaceId: id, chunkId }))
    const s = c?.sentences.find((x) => x.sentenceId === sentenceId)
    return c && s ? { sentenceId: s.sentenceId, documentId: c.documentId, chunkId: c.chunkId, ord: s.ord, title: c.title, text: s.text } : undefined
  }

  /** From the click until the generate job exists or is refused: a second click meanwhile starts nothing. */
  const starting = pendingAction()
  function generate(params: GenerateParams): Promise<Job | undefined> {
    return starting.run(async () => {
      const id = workspaceId.value
      if (!id) return undefined
      const job = await attempt(() => api().call('job.start', { kind: 'questions.generate', workspaceId: id, params }))
      if (job) generating.value = job
      return job
    })
  }

  return {
    workspaceId, sets, setId, detail, questions, total, offset, filter, lastImport, episodes, generating, generateStarting: starting.pending, error, live,
    load, loadPage, selectSet, goTo, applyFilter, importFile, createSet, split, save, remove, showEpisodes, findSentences, sentenceOf, generate,
  }
})
