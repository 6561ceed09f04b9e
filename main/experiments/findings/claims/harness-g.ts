/**
 * The one Harness-G experiment claims 1-3 share: free query (the base) and the menu trained with
 * outcome-only credit (claims 1 and 2), and the menu with SNC and with information-gain credit (claim 3).
 * The menu with outcome credit is claim 3's outcome-only arm too: the same training config on the same
 * seeds and questions, so it is trained once per seed instead of once per experiment.
 */
import type { ExperimentPlan, PlanContext } from './types'
import { trainedBase } from './base'

export const HARNESS_G = 'harness-g'
export const MENU = 'menu (outcome credit)'
export const SNC = 'SNC (lambda 0.5)'
export const INFO_GAIN = 'info gain (lambda 0.5)'

export const harnessGExperiment = (plan: PlanContext): ExperimentPlan => ({
  key: HARNESS_G,
  config: {
    base: trainedBase(plan, 'free-query'),
    rows: [
      { label: MENU, group: 'menu vs free query', environment: 'graph-menu', training: { credit: { scheme: 'outcome', lambda: 0 } } },
      { label: SNC, group: 'credit', environment: 'graph-menu', training: { credit: { scheme: 'snc', lambda: 0.5 } } },
      { label: INFO_GAIN, group: 'credit', environment: 'graph-menu', training: { credit: { scheme: 'info-gain', lambda: 0.5 } } },
    ],
  },
})
