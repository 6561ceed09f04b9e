/**
 * Reads what credit needs from a sentence-substrate trajectory: per step, the chosen item, the menu with
 * every item's preview, what was seen and committed before, and the provenance producers (the step that
 * surfaced the sentence a SELECT commits or the entity a LOOKUP looks up, and the SELECT that committed the
 * sentence that entity came from). A step taken as the model's
 * text (trainers send their decoded reply) chose the item that text names, read as the environment read
 * it (parseMenuReply), so it gets that item's credit exactly as a menu id would.
 */
import { parseMenuReply, type Action, type Trajectory } from '../../harness'
import type { SentenceEnvData } from '../../harness'
import type { CreditStep } from '../../rl/credit'

/** The menu id an action chose: the id of a menu action, the one id a text reply names, else ''. */
export function chosenMenuId(action: Action, ids: readonly string[]): string {
  if (action.kind === 'menu') return typeof action.id === 'string' ? action.id : ''
  if (action.kind === 'text') {
    const reply = parseMenuReply(action.text, ids)
    return 'id' in reply ? reply.id : ''
  }
  return ''
}

/** Sentence / entity `step` is the 1-based turn that surfaced it (0 = reset), i.e. trajectory step index + 1. */
const producerOf = (surfacedAt: number | undefined): number[] => (surfacedAt !== undefined && surfacedAt > 0 ? [surfacedAt - 1] : [])

export function creditSteps(trajectory: Trajectory): CreditStep[] {
  // The step that committed each sentence (SELECT / ANSWER_WITH), filled as the steps are read in order.
  const committedAt = new Map<number, number>()
  return trajectory.steps.map((step, t) => {
    const data = step.observation?.data as SentenceEnvData | undefined
    if (!data || step.actions.kind !== 'menu') throw new Error('Credit needs the menu trajectory with observations and previews (graph-menu)')
    const items = step.actions.items
    const chosenId = chosenMenuId(step.action, items.map((i) => i.id))
    const chosen = items.find((i) => i.id === chosenId)
    const previewOf: Record<string, number[]> = {}
    for (const [id, p] of Object.entries(step.previews ?? {})) if (p?.sentenceIds) previewOf[id] = p.sentenceIds
    let producers: number[] = []
    if (chosen && (chosen.type === 'SELECT' || chosen.type === 'ANSWER_WITH')) {
      const handle = Number(chosen.id.slice(1))
      producers = producerOf(data.visible.find((s) => s.handle === handle)?.step)
    } else if (chosen?.type === 'LOOKUP') {
      const handle = Number(chosen.id.slice(1))
      const entity = data.entities.find((e) => e.handle === handle)
      producers = producerOf(entity?.step)
      // The bridge (Harness-G's enablement): the SELECT that committed the sentence the entity came from.
      // The LOOKUP's query is built from the committed evidence, and committing that sentence is the
      // move the paper pays for the LOOKUP it enabled; surfacing it only put the entity on the menu.
      const bridge = entity?.fromSentence !== undefined ? committedAt.get(entity.fromSentence) : undefined
      if (bridge !== undefined && !producers.includes(bridge)) producers.push(bridge)
    }
    if (chosen && step.info.valid && (chosen.type === 'SELECT' || chosen.type === 'ANSWER_WITH')) {
      for (const id of previewOf[chosen.id] ?? []) if (!committedAt.has(id)) committedAt.set(id, t)
    }
    return {
      chosen: { id: chosenId, type: step.info.valid && chosen ? chosen.type : null },
      menu: items.map((i) => ({ id: i.id, type: i.type })),
      previewOf,
      seenBefore: [...data.visible.map((s) => s.id), ...data.committed.map((s) => s.id)],
      committedBefore: data.committed.map((s) => s.id),
      producers: producers.filter((p) => p < step.t),
    }
  })
}
