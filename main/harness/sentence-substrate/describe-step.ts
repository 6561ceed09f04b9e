import type { StepView } from '../../../preload/contract/trajectory'
import type { SentenceEnvSnapshot } from './sentence-environment'

const isSnapshot = (s: unknown): s is SentenceEnvSnapshot =>
  typeof s === 'object' && s !== null && Array.isArray((s as SentenceEnvSnapshot).committed) && Array.isArray((s as SentenceEnvSnapshot).visible)

/** What a Harness-G step changed (evidence committed, sentences surfaced, entities learnt) and the committed evidence after it. */
export function describeSentenceStep(before: unknown, after: unknown): StepView {
  if (!isSnapshot(after)) return { changes: [], memory: null, committed: null }
  const prev = isSnapshot(before) ? before : null
  const byId = new Map(after.visible.map((s) => [s.id, s]))
  const committed = after.committed.map((id) => {
    const s = byId.get(id)
    return { sentenceId: id, title: s?.title ?? '', ord: s?.ord ?? -1, text: s?.text ?? '' }
  })
  if (!prev) return { changes: ['initial state'], memory: null, committed }
  const changes: string[] = []
  const newlyCommitted = after.committed.slice(prev.committed.length)
  if (newlyCommitted.length) changes.push(`committed +${newlyCommitted.length}: ${newlyCommitted.map((id) => { const s = byId.get(id); return s ? `${s.title} #${s.ord}` : `#${id}` }).join(', ')}`)
  if (after.visible.length > prev.visible.length) changes.push(`visible +${after.visible.length - prev.visible.length}`)
  if (after.entities.length > prev.entities.length) changes.push(`entities +${after.entities.length - prev.entities.length}: ${after.entities.slice(prev.entities.length, prev.entities.length + 6).map((e) => e.name).join(', ')}`)
  if (after.formatErrors > prev.formatErrors) changes.push('format error')
  if (after.done && !prev.done) changes.push(`ended (${after.endReason ?? 'done'})`)
  return { changes, memory: null, committed }
}
