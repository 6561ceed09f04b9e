import { ref, type Ref } from 'vue'
import type { RouteOutput, TrainingRunDetail } from '../../../preload/contract'
import { useApi } from '../api'
import type { attemptInto } from './attempt'

/** The selected training run: its detail, another run overlaid on its charts, the rollouts of a chosen step. */
export function useTrainingSelection(workspaceId: Ref<string | null>, attempt: ReturnType<typeof attemptInto>) {
  const selectedId = ref<number | null>(null)
  const detail = ref<TrainingRunDetail | null>(null)
  const rollouts = ref<{ step: number; page: RouteOutput<'training.rollouts'> } | null>(null)
  /** Another run drawn over the selected one's charts (W&B's overlay), read once when picked. */
  const overlay = ref<TrainingRunDetail | null>(null)

  async function setOverlay(runId: number | null): Promise<void> {
    const id = workspaceId.value
    if (!id || runId === null) {
      overlay.value = null
      return
    }
    const out = await attempt(() => useApi().call('training.run', { workspaceId: id, runId }))
    overlay.value = out && workspaceId.value === id ? out : null
  }

  async function refreshDetail(): Promise<void> {
    const id = workspaceId.value
    const runId = selectedId.value
    if (!id || runId === null) return
    const out = await attempt(() => useApi().call('training.run', { workspaceId: id, runId }))
    if (out && workspaceId.value === id && selectedId.value === runId) detail.value = out
  }

  async function select(runId: number): Promise<void> {
    if (selectedId.value !== runId) {
      selectedId.value = runId
      detail.value = null
      rollouts.value = null
    }
    await refreshDetail()
  }

  async function loadRollouts(step: number): Promise<void> {
    const id = workspaceId.value
    const runId = selectedId.value
    if (!id || runId === null) return
    const page = await attempt(() => useApi().call('training.rollouts', { workspaceId: id, runId, step, limit: 500 }))
    if (page && workspaceId.value === id && selectedId.value === runId) rollouts.value = { step, page }
  }

  /** Another workspace: no run selected. */
  function clear(): void {
    selectedId.value = null
    detail.value = null
    rollouts.value = null
  }

  return { clear, selectedId, detail, rollouts, overlay, setOverlay, refreshDetail, select, loadRollouts }
}
