import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { ImportReport, QuestionDetail, QuestionEdit, QuestionSplitSpec, RouteOutput } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'
import { useGoldSentences } from './gold-sentences'
import { useQuestionGeneration } from './question-generation'
import { useQuestionPage } from './question-page'
import { useQuestionSets } from './question-sets'

export { QUESTION_PAGE } from './question-page'
export type { PickableSentence } from './gold-sentences'

/**
 * The Questions page: question sets of one workspace, the selected set's detail (splits, the runs that
 * used them, its import report), a filtered page of questions with gold sentence text, a question's
 * episodes across runs; import, write, split and generate. Refreshed when a generation job of this
 * workspace ends (while the page holds `live()`).
 */
export const useQuestionsStore = defineStore('questions', () => {
  const workspaceId = ref<string | null>(null)
  const lastImport = ref<{ setId: number; report: ImportReport } | null>(null)
  const episodes = ref<{ questionId: number; list: RouteOutput<'questions.episodes'> } | null>(null)
  const error = ref<string | null>(null)
  const attempt = attemptInto(error)
  const api = () => useApi()
  const sets = useQuestionSets(workspaceId, attempt)
  const { setId, detail, loadDetail, refreshSets } = sets
  const page = useQuestionPage(workspaceId, setId, attempt)
  const { offset, loadPage } = page
  const generation = useQuestionGeneration(workspaceId, attempt, (set) => void load(workspaceId.value!, set))

  async function load(id: string, select?: number): Promise<void> {
    if (workspaceId.value !== id) {
      workspaceId.value = id
      sets.clear()
      page.clear()
      lastImport.value = null
      episodes.value = null
      generation.generating.value = null
    }
    const out = await attempt(() => api().call('questions.sets', { workspaceId: id }))
    if (!out || workspaceId.value !== id) return
    sets.sets.value = out
    if (select !== undefined && out.some((s) => s.id === select)) {
      setId.value = select
      offset.value = 0
    } else if (!out.some((s) => s.id === setId.value)) setId.value = out[0]?.id ?? null
    await Promise.all([loadDetail(), loadPage()])
  }

  async function selectSet(id: number | null): Promise<void> {
    setId.value = id
    offset.value = 0
    episodes.value = null
    await Promise.all([loadDetail(), loadPage()])
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

  async function showEpisodes(questionId: number): Promise<void> {
    const id = workspaceId.value
    if (!id) return
    const list = await attempt(() => api().call('questions.episodes', { workspaceId: id, questionId }))
    if (list && workspaceId.value === id) episodes.value = { questionId, list }
  }

  const { findSentences, sentenceOf } = useGoldSentences(workspaceId, attempt)
  return {
    workspaceId, sets: sets.sets, setId, detail, questions: page.questions, total: page.total, offset, filter: page.filter, lastImport, episodes, generating: generation.generating, generateStarting: generation.starting, error, live: generation.live,
    load, loadPage, selectSet, goTo: page.goTo, applyFilter: page.applyFilter, importFile, createSet, split, save, remove, showEpisodes, findSentences, sentenceOf, generate: generation.generate,
  }
})
