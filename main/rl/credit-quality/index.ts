/** Credit quality: how well each credit scheme's per-step signal picks out the steps on a gold path (issue 30). */
export { rankAuc } from './auc'
export { goldPathLabels, type StepLabel } from './gold-path'
export { signalQuality, type AucSlice, type QualityGroup, type QualityOptions, type QualityRollout, type SignalQuality } from './quality'
export { creditSignals, type CreditedGroup, type CreditedRollout, type SignalOptions } from './signals'
