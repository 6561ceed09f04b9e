import type { ExportFormat, ExportFormatInfo } from '../../preload/contract'
import type { ExportFormatDef } from './format'
import { questionsFlashragJsonl } from './formats/questions-flashrag-jsonl'
import { questionsSearchR1Parquet } from './formats/questions-searchr1-parquet'
import { questionsVerlJsonl } from './formats/questions-verl-jsonl'
import { questionsVerlParquet } from './formats/questions-verl-parquet'
import { runEpisodesJsonl } from './formats/run-episodes-jsonl'
import { runResultsCsv } from './formats/run-results-csv'
import { runResultsJsonl } from './formats/run-results-jsonl'
import { runSftJsonl } from './formats/run-sft-jsonl'

/** Every export format by name, one declaration per file in formats/ (a format the contract names without a writer here is a type error). */
export const exportFormats: { [F in ExportFormat]: ExportFormatDef<F> } = {
  'run-results-csv': runResultsCsv,
  'run-results-jsonl': runResultsJsonl,
  'run-episodes-jsonl': runEpisodesJsonl,
  'run-sft-jsonl': runSftJsonl,
  'questions-flashrag-jsonl': questionsFlashragJsonl,
  'questions-verl-jsonl': questionsVerlJsonl,
  'questions-verl-parquet': questionsVerlParquet,
  'questions-searchr1-parquet': questionsSearchR1Parquet,
}

export const exportFormatCatalog = (): ExportFormatInfo[] =>
  Object.values(exportFormats).map(({ name, source, label, description, extension, folder }) => ({ name, source, label, description, extension, ...(folder ? { folder } : {}) }))
