import { ref, type Ref } from 'vue'
import type { QuestionSetDetail, RouteOutput } from '../../../preload/contract'
import { useApi } from '../api'
import type { attemptInto } from './attempt'

/** A workspace's question sets and the selected one's detail (splits, the runs that used them, its import report). */
export function useQuestionSets(workspaceId: Ref<string | null>, attempt: ReturnType<typeof attemptInto>) {
  const sets = ref<RouteOutput<'questions.sets'>>([])
  const setId = ref<number | null>(null)
  const detail = ref<QuestionSetDetail | null>(null)

  async function loadDetail(): Promise<void> {
    const id = workspaceId.value
    const set = setId.value
    if (!id || set === null) {
      detail.value = null
      return
    }
    const d = await attempt(() => useApi().call('questions.set', { workspaceId: id, setId: set }))
    if (d && workspaceId.value === id && setId.value === set) detail.value = d
  }

  async function refreshSets(): Promise<void> {
    const id = workspaceId.value
    if (!id) return
    const out = await attempt(() => useApi().call('questions.sets', { workspaceId: id }))
    if (out && workspaceId.value === id) sets.value = out
  }

  /** Another workspace: no sets, none selected. */
  function clear(): void {
    sets.value = []
    setId.value = null
    detail.value = null
  }

  return { sets, setId, detail, loadDetail, refreshSets, clear }
}
