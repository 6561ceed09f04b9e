import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { Question, RouteOutput } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'

export const QUESTION_PAGE = 50

/** Question sets of one workspace and a page of one set (Questions page). */
export const useQuestionsStore = defineStore('questions', () => {
  const workspaceId = ref<string | null>(null)
  const sets = ref<RouteOutput<'questions.sets'>>([])
  const setId = ref<number | null>(null)
  const questions = ref<Question[]>([])
  const total = ref(0)
  const offset = ref(0)
  const error = ref<string | null>(null)
  const attempt = attemptInto(error)

  async function load(id: string): Promise<void> {
    if (workspaceId.value !== id) {
      workspaceId.value = id
      sets.value = []
      setId.value = null
      questions.value = []
      total.value = 0
      offset.value = 0
    }
    const out = await attempt(() => useApi().call('questions.sets', { workspaceId: id }))
    if (!out || workspaceId.value !== id) return
    sets.value = out
    if (!out.some((s) => s.id === setId.value)) setId.value = out[0]?.id ?? null
    await loadPage()
  }

  async function loadPage(): Promise<void> {
    const id = workspaceId.value
    const set = setId.value
    if (!id || set === null) return
    const at = offset.value
    const page = await attempt(() => useApi().call('questions.list', { workspaceId: id, setId: set, offset: at, limit: QUESTION_PAGE }))
    if (!page || workspaceId.value !== id || setId.value !== set || offset.value !== at) return
    questions.value = page.questions
    total.value = page.total
  }

  async function selectSet(id: number | null): Promise<void> {
    setId.value = id
    offset.value = 0
    await loadPage()
  }

  async function goTo(at: number): Promise<void> {
    offset.value = Math.max(0, at)
    await loadPage()
  }

  return { workspaceId, sets, setId, questions, total, offset, error, load, loadPage, selectSet, goTo }
})
