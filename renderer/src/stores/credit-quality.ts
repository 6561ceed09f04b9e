import { defineStore } from 'pinia'
import { ref } from 'vue'
import type { CreditQualityReport } from '../../../preload/contract'
import { useApi } from '../api'
import { attemptInto } from './attempt'

export type CreditQualityScorer = 'lexical' | 'support'

/**
 * Credit quality of the selected training run (training.creditQuality): measured on request, since the
 * backend replays and re-credits every rollout of the chosen steps. One report at a time, keyed by what
 * was asked, so a late answer for another run or scorer is dropped.
 */
export const useCreditQualityStore = defineStore('credit-quality', () => {
  const report = ref<CreditQualityReport | null>(null)
  const asked = ref<string | null>(null)
  const loading = ref(false)
  const error = ref<string | null>(null)
  const attempt = attemptInto(error)

  async function measure(workspaceId: string, runId: number, fromStep: number, toStep: number, scorer: CreditQualityScorer): Promise<void> {
    const key = JSON.stringify([workspaceId, runId, fromStep, toStep, scorer])
    asked.value = key
    loading.value = true
    const out = await attempt(() => useApi().call('training.creditQuality', { workspaceId, runId, fromStep, toStep, scorer }))
    if (asked.value !== key) return
    loading.value = false
    report.value = out ?? null
  }

  function clear(): void {
    asked.value = null
    report.value = null
    loading.value = false
    error.value = null
  }

  return { report, loading, error, measure, clear }
})
