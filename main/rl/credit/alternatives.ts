/**
 * Same-state frontier alternatives for SNC: up to k other information items from the menu, picked
 * round-robin across the item types present so that a menu dominated by one type (say twenty SELECTs
 * and two LOOKUPs) still measures the chosen action against every kind of move it could have made.
 */
import { seededRandom } from '../../eval'
import { isInformationAction, type CreditMenuItem, type CreditStep } from './types'

/** One generator per (seed, step): the choice at a step does not depend on how many steps precede it. */
const stepRandom = (seed: number, stepIndex: number): (() => number) =>
  seededRandom((Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(stepIndex + 1, 0x85ebca6b)) >>> 0)

const shuffle = <T>(items: T[], random: () => number): T[] => {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    const tmp = items[i]!
    items[i] = items[j]!
    items[j] = tmp
  }
  return items
}

/**
 * Candidates: menu items other than the chosen one that are information actions (never ANSWER) and
 * have a preview (an unpreviewed item cannot be scored, and counting it as 0 would bias the baseline).
 * Items are sorted by id before the seeded shuffle so the pick ignores menu order; the type order is
 * shuffled too, so with more types than slots no type is always the one left out.
 */
export const pickAlternatives = (step: CreditStep, seed: number, stepIndex: number, k: number): CreditMenuItem[] => {
  if (k <= 0) return []
  const byType = new Map<string, CreditMenuItem[]>()
  const seenIds = new Set<string>([step.chosen.id])
  for (const item of step.menu) {
    if (seenIds.has(item.id) || !isInformationAction(item.type) || step.previewOf[item.id] === undefined) continue
    seenIds.add(item.id)
    const group = byType.get(item.type) ?? []
    group.push(item)
    byType.set(item.type, group)
  }
  const random = stepRandom(seed, stepIndex)
  const types = shuffle([...byType.keys()].sort(), random)
  const queues = types.map((type) => shuffle([...byType.get(type)!].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)), random))
  const picked: CreditMenuItem[] = []
  for (let round = 0; picked.length < k && queues.some((q) => q.length > round); round++) {
    for (const queue of queues) {
      const item = queue[round]
      if (item !== undefined && picked.length < k) picked.push(item)
    }
  }
  return picked
}
