/** What one kind's generation yields: the questions kept by its checks, and the dropped candidates counted by reason. */
import { GenerationDrop } from '../../../preload/contract'
import type { GeneratedQuestion } from './types'

export interface Outcomes {
  questions: GeneratedQuestion[]
  dropped: Partial<Record<GenerationDrop, number>>
}

/** Of two reasons, the one a candidate reached later in the checks (the contract lists them in order). */
export const furthest = (a: GenerationDrop, b: GenerationDrop): GenerationDrop => (GenerationDrop.options.indexOf(b) > GenerationDrop.options.indexOf(a) ? b : a)
