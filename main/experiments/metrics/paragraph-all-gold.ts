import { declareMetric, METRIC_GROUPS } from './declaration'

export const paragraphAllGold = declareMetric(
  'paragraph.allGold',
  'All gold documents committed',
  'Share of episodes whose evidence covers every gold document (paragraph recall = 1), extra documents allowed.',
  { group: METRIC_GROUPS.retrieval, level: 'paragraph' },
  { compute: (s) => (s.documents === null ? undefined : (s.documents.curatedRecall === 1 ? 1 : 0)) },
)
