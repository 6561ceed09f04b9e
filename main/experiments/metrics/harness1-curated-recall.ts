import { declareMetric, METRIC_GROUPS } from './declaration'

export const harness1CuratedRecall = declareMetric(
  'harness1.curatedRecall',
  'Curated recall (H-1 gold level)',
  "Share of the gold covered by the curated set, at the level Harness-1's reward resolves gold (facts where the gold has them, else documents).",
  { group: METRIC_GROUPS.harness1, level: 'paragraph' },
  { storedBy: "the Harness-1 reward scheme, beside the reward's terms (experiments/metrics/rewards.ts)" },
)
