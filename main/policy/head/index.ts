/** Trainable policy head over a variable-size action set, with exact gradients and Adam (README, Training). */
export { argmax, entropy, logSoftmax, sampleIndex, softmax } from './softmax'
export { linearScorer, mlpScorer, type Activation, type HeadConfig, type ParamBlock, type Scorer, type ScorerFactory } from './scorers'
export {
  HEAD_CHECKPOINT_FORMAT,
  PolicyHead,
  createHead,
  headCheckpointSchema,
  headNames,
  registerHead,
  resolveHeadConfig,
  restoreHead,
  type FeatureRows,
  type ForwardOptions,
  type HeadCache,
  type HeadCheckpoint,
  type HeadOptions,
  type HeadOutput,
  type ParamSegment,
} from './head'
export { ADAM_STATE_FORMAT, Adam, adamStateSchema, clipGradNorm, gradNorm, type AdamOptions, type AdamState } from './adam'
