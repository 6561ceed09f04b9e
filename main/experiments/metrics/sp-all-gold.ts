import { declareMetric, METRIC_GROUPS } from './declaration'

export const spAllGold = declareMetric(
  'sp.allGold',
  'All gold committed',
  'Share of episodes whose committed evidence holds every gold supporting sentence (SP recall = 1), extra sentences allowed.',
  { group: METRIC_GROUPS.supportingFacts, level: 'sentence' },
  { compute: (s) => (s.supportingFacts === null ? undefined : (s.supportingFacts.recall === 1 ? 1 : 0)) },
)
