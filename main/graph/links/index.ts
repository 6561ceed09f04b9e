export {
  computeEntityLinks,
  TRIGRAM_METHOD,
  EMBEDDING_METHOD,
  DEFAULT_TOP_K,
  DEFAULT_THRESHOLD,
  type EmbedFn,
  type EntityLinkOptions,
  type EntityLinkResult,
} from './compute'
export { trigramTfidf, trigrams, normaliseName, type SparseRows } from './trigram-vectors'
export { sparseCosineJoin, type JoinOptions, type JoinResult } from './sparse-join'
export { denseCosineJoin, denseRows, type DenseRows, type DenseStrategy, type DenseJoinOptions } from './dense-join'
export { TopKTable } from './top-k-table'
