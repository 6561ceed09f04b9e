/**
 * Pure helpers both processes use, main/ and the renderer alike: no imports, no Node built-ins, no DOM.
 * The bottom floor of test/unit/import-rules.test.ts.
 */
export { formatBytes } from './bytes'
export { fnv1a } from './hash'
export { expectedRunSeconds, fitRunShape, formatDuration, remainingSeconds, RUN_SHAPES, type GgufRates, type RunShape, type StepTiming } from './run-time'
