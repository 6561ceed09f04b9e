import { verlParquet } from './verl-parquet'

export const questionsSearchR1Parquet = verlParquet(
  'questions-searchr1-parquet',
  'Search-R1 rows (Parquet)',
  "Search-R1's training rows: its prompt with <search>/<answer> tags, data_source the bare benchmark name its exact-match reward dispatches on",
  'search-r1',
  'search-r1',
)
