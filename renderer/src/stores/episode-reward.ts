import type { MetricInfo } from '../../../preload/contract'
import { useCatalogStore } from './catalog'
import type { Episode } from './trajectory'

/** An episode's reward at its end: the total and each component, labelled by the metric catalogue. */
export interface RewardBreakdown {
  total: { info: MetricInfo; value: number | null } | null
  components: { info: MetricInfo; value: number | null }[]
}

/** Reward metrics: Harness-1's `reward.total` with `reward.<term>`, a training rollout's `train.reward` with `train.reward.<term>`. */
const REWARD_FAMILIES = [
  { total: 'train.reward', prefix: 'train.reward.' },
  { total: 'reward.total', prefix: 'reward.' },
] as const

/** The episode's reward with each component, by the metric catalogue's labels. */
export function rewardOf(ep: Episode): RewardBreakdown {
  const catalog = useCatalogStore()
  const names = Object.keys(ep.metrics)
  const family = REWARD_FAMILIES.find((f) => names.includes(f.total) || names.some((n) => n.startsWith(f.prefix)))
  if (!family) return { total: null, components: [] }
  const value = (name: string) => ep.metrics[name] ?? null
  return {
    total: names.includes(family.total) ? { info: catalog.metric(family.total), value: value(family.total) } : null,
    components: catalog
      .ordered(names.filter((n) => n.startsWith(family.prefix) && n !== family.total))
      .map((n) => ({ info: catalog.metric(n), value: value(n) })),
  }
}
