import { declareMetric, METRIC_GROUPS } from './declaration'

/** Over distinct documents; nothing committed scores 0, as SP precision does. */
export const paragraphF1 = declareMetric(
  'paragraph.f1',
  'Paragraph F1 (evidence)',
  'Harmonic mean of paragraph precision and paragraph recall of the evidence, document level.',
  { group: METRIC_GROUPS.retrieval, level: 'paragraph', headline: true },
  {
    compute: (s) => {
      if (s.documents === null) return undefined
      const precision = s.documents.curatedPrecision ?? 0
      const recall = s.documents.curatedRecall ?? 0
      return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0
    },
  },
)
