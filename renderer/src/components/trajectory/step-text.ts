import type { EpisodeStep, MenuItemShape } from '../../../../preload/contract'

/** How the Trajectory page names a step's parts: its menu, its tools, the chosen item, the action, its timing. */
export const menuOf = (step: EpisodeStep): MenuItemShape[] => (step.actions.kind === 'menu' ? step.actions.items : [])
export const toolsOf = (step: EpisodeStep): string[] => (step.actions.kind === 'tools' ? step.actions.tools.map((t) => t.name) : [])
export const chosenId = (step: EpisodeStep): string | null => (step.action.kind === 'menu' ? step.action.id : null)
export const chosenItem = (step: EpisodeStep): MenuItemShape | null => {
  const id = chosenId(step)
  return id === null ? null : (menuOf(step).find((i) => i.id === id) ?? null)
}

/** The action as the policy sent it: a menu id, a tool call, or raw text. */
export function actionText(step: EpisodeStep): string {
  const a = step.action
  if (a.kind === 'menu') return a.id
  if (a.kind === 'tool') return `${a.name}(${JSON.stringify(a.arguments ?? {})})`
  return `text: ${a.text}`
}

/** One short line for the step list: the chosen item's type and label, the tool, or the format error. */
export function actionLine(step: EpisodeStep): string {
  if (!step.info.valid) return `format error: ${step.info.formatError ?? actionText(step)}`
  const item = chosenItem(step)
  if (item) return item.label
  return actionText(step)
}

/** Short tag of the action: the menu item's type (SELECT, LOOKUP, ...) or the tool's name. */
export function actionKind(step: EpisodeStep): string {
  if (!step.info.valid) return 'format error'
  const item = chosenItem(step)
  if (item) return item.type
  if (step.action.kind === 'tool') return step.action.name
  return step.action.kind
}

export const timing = (step: EpisodeStep): string =>
  step.timings
    ? `${step.ms.toFixed(1)} ms (previews ${step.timings.previews.toFixed(1)} · policy ${step.timings.policy.toFixed(1)} · env ${step.timings.env.toFixed(1)})`
    : `${step.ms.toFixed(1)} ms`

export const previewOf = (step: EpisodeStep, itemId: string): string => step.previews?.[itemId]?.summary ?? ''
