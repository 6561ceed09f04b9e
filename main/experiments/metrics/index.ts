/** Stored metrics, one declaration each (main/experiments/metrics/*.ts), registered by name; the catalogue and scoreEpisode read them. */
export { GRAPHR1, METRIC_GROUPS, NORMALISED, OFFICIAL, declareMetric, type MetricCapabilities, type MetricDeclaration, type MetricSource } from './declaration'
export { metrics } from './registry'
export { infoOf, metricCatalog, metricInfo } from './catalog'
export { scoredEpisode, type AnswerVariant, type ScoredEpisode } from './scored-episode'
