import { isPlainObject, jsonOrJsonlRecords } from '../parsers/records'
import { readBenchmarkFile, type ImportOptions } from './fields'

export type BenchmarkKind = 'hotpotqa' | '2wikimultihopqa' | 'musique' | 'flashrag'

export interface BenchmarkFiles {
  /** Questions with gold answers (and gold evidence where the benchmark has it). */
  questionsFile?: string
  /** A separate corpus: a title dict or {title, text} records (HotpotQA, 2Wiki, MuSiQue), {id, contents} JSONL (FlashRAG). */
  corpusFile?: string
}

/** Question types that only 2WikiMultiHopQA uses; HotpotQA has bridge and comparison. */
const TWO_WIKI_TYPES = new Set(['compositional', 'inference', 'bridge_comparison'])

/**
 * Which benchmark a set of files is, from the fields of its records; null when it matches none.
 * A malformed file is reported (IngestFileError) rather than called unrecognised.
 */
export async function detectBenchmark(files: BenchmarkFiles, options: ImportOptions = {}): Promise<BenchmarkKind | null> {
  const path = files.questionsFile ?? files.corpusFile
  if (!path) return null
  const { name, text } = await readBenchmarkFile(path, options)
  const records = jsonOrJsonlRecords(text, name)
    .map((record) => record.value)
    .filter(isPlainObject)
  const first = records[0]
  if (!first) return null
  if (!files.questionsFile) return typeof first.contents === 'string' ? 'flashrag' : null
  if (Array.isArray(first.paragraphs)) return 'musique'
  if (Array.isArray(first.golden_answers)) return 'flashrag'
  if (first.context !== undefined && first.supporting_facts !== undefined) {
    const twoWiki = records.some((record) => record.evidences !== undefined || (typeof record.type === 'string' && TWO_WIKI_TYPES.has(record.type)))
    return twoWiki ? '2wikimultihopqa' : 'hotpotqa'
  }
  return null
}
