/**
 * Benchmark importers: a benchmark's files in, its documents AND its gold question set out.
 *
 *   detectBenchmark(files, options?) -> Promise<BenchmarkKind | null>
 *   importBenchmark(kind, files, options?) -> Promise<ParsedSource>
 *
 * with files = { questionsFile?, corpusFile? } (absolute paths) and kind one of
 *   'hotpotqa'         questions JSON [{_id, question, answer, type, level, supporting_facts, context}],
 *                      optional corpus dict title -> [sentences]; gold sentence facts and documents
 *   '2wikimultihopqa'  the same layout, plus `evidences`
 *   'musique'          questions JSONL {id, question, answer, answer_aliases, paragraphs[...]}; gold documents only
 *   'flashrag'         corpus JSONL {id, contents: "\"Title\"\ntext"} and/or QA JSONL {id, question, golden_answers}; no gold evidence
 * The per-benchmark functions (importHotpotQA, ...) are exported for callers that know the kind.
 *
 * Conventions: supportingDocs hold document externalIds (for HotpotQA/2Wiki these are the titles);
 * source.path is the file's base name; a malformed record fails the import with an IngestFileError
 * naming the file, the record (JSON index or JSONL line) and the field, never skipped silently.
 */
import type { ParsedSource } from '../types'
import { detectBenchmark, type BenchmarkFiles, type BenchmarkKind } from './detect'
import type { ImportOptions } from './fields'
import { importFlashRAG } from './flashrag'
import { import2WikiMultiHopQA, importHotpotQA } from './hotpot'
import { importMuSiQue } from './musique'

export { detectBenchmark, import2WikiMultiHopQA, importFlashRAG, importHotpotQA, importMuSiQue }
export type { BenchmarkFiles, BenchmarkKind, ImportOptions }

export const BENCHMARK_KINDS: readonly BenchmarkKind[] = ['hotpotqa', '2wikimultihopqa', 'musique', 'flashrag']

const questionsOf = (kind: BenchmarkKind, files: BenchmarkFiles): { questionsFile: string; corpusFile?: string } => {
  if (!files.questionsFile) throw new Error(`a ${kind} import needs a questions file`)
  return { questionsFile: files.questionsFile, ...(files.corpusFile ? { corpusFile: files.corpusFile } : {}) }
}

export async function importBenchmark(kind: BenchmarkKind, files: BenchmarkFiles, options: ImportOptions = {}): Promise<ParsedSource> {
  switch (kind) {
    case 'hotpotqa':
      return importHotpotQA(questionsOf(kind, files), options)
    case '2wikimultihopqa':
      return import2WikiMultiHopQA(questionsOf(kind, files), options)
    case 'musique':
      return importMuSiQue(questionsOf(kind, files), options)
    case 'flashrag':
      return importFlashRAG(files, options)
  }
}
