import { menuCue } from '../protocols'
import type { MenuItem } from '../types'
import type { Episode } from './episode'
import { clip } from './sentence-items'

const MAX_RENDERED_ENTITIES = 30

/** Question, turn, committed evidence, visible sentences and entities: the part both environments show. */
export function renderState(ep: Episode, turnLimit: number): string[] {
  const lines = [`Question: ${ep.question.question}`, `Turn ${ep.turn + 1} of ${turnLimit} (${Math.max(0, turnLimit - ep.turn)} left).`, '']
  lines.push(`Committed evidence (${ep.committed.length}):`)
  if (ep.committed.length === 0) lines.push('  (none yet)')
  for (const id of ep.committed) {
    const s = ep.visible.get(id)!
    lines.push(`  #${s.handle} [${s.title}] ${s.text}`)
  }
  const open = [...ep.visible.values()].filter((s) => !ep.isCommitted(s.id))
  lines.push('', `Visible sentences (${open.length}):`)
  if (open.length === 0) lines.push('  (none)')
  for (const s of open) lines.push(`  #${s.handle} [${s.title}] ${s.text}`)
  // Names only, and a bounded list: the LOOKUP items below are what can be acted on.
  const entities = [...ep.entities.values()]
  const named = entities.slice(0, MAX_RENDERED_ENTITIES).map((e) => `${e.name}${e.visited ? ' (looked up)' : ''}`)
  const more = entities.length > MAX_RENDERED_ENTITIES ? `; … ${entities.length - MAX_RENDERED_ENTITIES} more` : ''
  lines.push('', `Entities (${entities.length}): ${entities.length === 0 ? '(none)' : named.join('; ') + more}`)
  return lines
}

/** Menu lines; sentence items name their sentence by handle, since its text is listed above. */
export function renderMenu(items: readonly MenuItem[]): string[] {
  const lines = ['', menuCue('sentence-menu')!]
  const width = Math.max(1, ...items.map((i) => i.id.length))
  for (const item of items) {
    const sentence = item.target?.sentence
    const text = sentence ? `${item.type} #${sentence.handle}` : item.label
    lines.push(`  ${item.id.padEnd(width)}  ${clip(text, 160)}`)
  }
  return lines
}
