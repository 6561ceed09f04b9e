export { HeadPolicy, HEAD_PROTOCOLS, candidateBuilder, headInputDim, type HeadDecisionRecord, type HeadPolicyOptions, type PriorProvider } from './head-policy'
export { MENU_LAYOUT, SEARCH_LAYOUT, QUERY_CANDIDATES, queryCandidates, type Candidate, type CandidateBuilder } from './sentence-candidates'
export { encode, layoutDimension, layoutNames, squash, STATE_FEATURES, type FeatureLayout, type StateFeatures } from './features'
