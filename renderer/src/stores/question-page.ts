import { ref, type Ref } from 'vue'
import type { QuestionDetail, QuestionFilter } from '../../../preload/contract'
import { useApi } from '../api'
import type { attemptInto } from './attempt'

export const QUESTION_PAGE = 50

/** One filtered page of the selected set's questions, with gold sentence text, and the total the filter finds. */
export function useQuestionPage(workspaceId: Ref<string | null>, setId: Ref<number | null>, attempt: ReturnType<typeof attemptInto>) {
  const questions = ref<QuestionDetail[]>([])
  const total = ref(0)
  const offset = ref(0)
  const filter = ref<QuestionFilter>({})

  async function loadPage(): Promise<void> {
    const id = workspaceId.value
    const set = setId.value
    if (!id || set === null) return
    const at = offset.value
    const f = { ...filter.value }
    const page = await attempt(() => useApi().call('questions.search', { workspaceId: id, setId: set, filter: f, offset: at, limit: QUESTION_PAGE }))
    if (!page || workspaceId.value !== id || setId.value !== set || offset.value !== at) return
    questions.value = page.questions
    total.value = page.total
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

  /** Another workspace: an empty first page, no filter. */
  function clear(): void {
    questions.value = []
    total.value = 0
    offset.value = 0
    filter.value = {}
  }

  return { questions, total, offset, filter, loadPage, goTo, applyFilter, clear }
}
