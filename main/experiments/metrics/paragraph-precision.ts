import { declareMetric, METRIC_GROUPS } from './declaration'

/** Over distinct documents; nothing committed scores 0, as SP precision does. */
export const paragraphPrecision = declareMetric(
  'paragraph.precision',
  'Paragraph precision (evidence)',
  'Share of the distinct documents the evidence commits to that are gold documents (0 when nothing is committed).',
  { group: METRIC_GROUPS.retrieval, level: 'paragraph' },
  { compute: (s) => (s.documents === null ? undefined : (s.documents.curatedPrecision ?? 0)) },
)
