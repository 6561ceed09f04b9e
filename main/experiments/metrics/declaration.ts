import type { MetricInfo } from '../../../preload/contract'
import type { PluginDeclaration } from '../../rl/named-registry'
import type { ScoredEpisode } from './scored-episode'

/** How a metric is shown and compared: data, read by the catalogue, the tables and the CLI. */
export type MetricCapabilities = Pick<MetricInfo, 'direction' | 'format' | 'group' | 'level' | 'headline'>

/**
 * Where a metric's value comes from: computed from the scored episode (scoreEpisode runs every such
 * declaration; undefined leaves the key out, null stores 'does not apply'), or written by another part
 * of the run, named here so a reader knows where to look.
 */
export type MetricSource = { compute: (episode: ScoredEpisode) => number | null | undefined } | { storedBy: string }

/** One stored metric: its name (the key runs store, never renamed), its words and capabilities, and its source. */
export type MetricDeclaration = PluginDeclaration<MetricSource, MetricCapabilities>

/** The headings metrics are listed under (metric pickers group by them), in display order. */
export const METRIC_GROUPS = {
  answer: 'Answer',
  supportingFacts: 'Supporting facts',
  retrieval: 'Retrieved evidence',
  harness1: 'Harness-1 recall',
  reward: 'Reward (Harness-1)',
  episode: 'Episode',
  training: 'Training',
  other: 'Other',
} as const

/** The words the answer metrics share: the two normalisation rules and what they normalise. */
export const OFFICIAL = 'official HotpotQA/2Wiki'
export const GRAPHR1 = 'Graph-R1/Search-R1'
export const NORMALISED = 'lower-case, punctuation and a/an/the dropped, spaces collapsed'

type Options = Partial<Pick<MetricCapabilities, 'direction' | 'format' | 'headline'>> & Pick<MetricCapabilities, 'group' | 'level'>

/** A declaration with the common defaults: higher is better, a fraction, not a headline. */
export const declareMetric = (name: string, label: string, description: string, options: Options, impl: MetricSource): MetricDeclaration => ({
  name,
  label,
  description,
  capabilities: { direction: options.direction ?? 'higher', format: options.format ?? 'fraction', headline: options.headline ?? false, group: options.group, level: options.level },
  impl,
})
