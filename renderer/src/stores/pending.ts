import { ref, type Ref } from 'vue'

/**
 * The acknowledgement of a button that starts something (a job): `pending` from the click until the call
 * answers, with the job or the reason it was refused; a call made meanwhile is dropped, so a double click
 * starts one job. Stores use it for their launches; components for one-off starts (StartButton.vue).
 */
export function pendingAction(): { pending: Ref<boolean>; run: <T>(fn: () => Promise<T>) => Promise<T | undefined> } {
  const pending = ref(false)
  async function run<T>(fn: () => Promise<T>): Promise<T | undefined> {
    if (pending.value) return undefined
    pending.value = true
    try {
      return await fn()
    } finally {
      pending.value = false
    }
  }
  return { pending, run }
}
