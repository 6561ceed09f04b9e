import { verlParquet } from './verl-parquet'

export const questionsVerlParquet = verlParquet(
  'questions-verl-parquet',
  'verl rows (Parquet)',
  "verl's row format as a Parquet file (nested prompt, reward_model and extra_info columns); data_source searchR1_<benchmark> where the set has one",
  'plain',
  'verl',
)
