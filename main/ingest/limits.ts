import { DEFAULT_HTML_MAX_DEPTH, DEFAULT_HTML_READABILITY_MAX_DEPTH, DEFAULT_MAX_DECOMPRESSED_BYTES } from '../corpus/parsers'

/**
 * What one file may cost. Parsing and preparing (sentences, entities, chunks) run in a worker thread
 * that is terminated when the file runs past its time or heap budget; the file then fails with the
 * reason and the batch goes on. The parser limits stop known hostile shapes before they cost anything.
 */
export interface FileLimits {
  /** Seconds every file may take, plus `timeoutSPerMiB` for each MiB of its size. */
  timeoutS: number
  timeoutSPerMiB: number
  /**
   * Memory of the process that parses and prepares a file, in MiB: its resident size is watched (and
   * its parsing thread's V8 heap limited to the same), and the file fails when it goes over.
   */
  memoryMiB: number
  /** DOCX: most bytes the archive may inflate to. */
  maxDecompressedBytes: number
  /** HTML nested deeper than this is read by the plain extractor instead of Readability. */
  htmlReadabilityMaxDepth: number
  /** HTML nested deeper than this fails: "HTML nesting too deep". */
  htmlMaxDepth: number
}

export const DEFAULT_FILE_LIMITS: Readonly<FileLimits> = Object.freeze({
  timeoutS: 60,
  timeoutSPerMiB: 10,
  memoryMiB: 4096,
  maxDecompressedBytes: DEFAULT_MAX_DECOMPRESSED_BYTES,
  htmlReadabilityMaxDepth: DEFAULT_HTML_READABILITY_MAX_DEPTH,
  htmlMaxDepth: DEFAULT_HTML_MAX_DEPTH,
})

/** A file's time budget in seconds: the base plus the per-MiB allowance for its size. */
export const fileBudgetSeconds = (limits: FileLimits, sizeBytes: number): number => limits.timeoutS + (limits.timeoutSPerMiB * sizeBytes) / (1024 * 1024)

/**
 * Share of a file's budget Readability may use on an HTML page before the page is read again by the
 * plain extractor (in a fresh worker, with what is left of the budget).
 */
export const READABILITY_BUDGET_SHARE = 1 / 3

/** The limits that decide whether a file fails: part of the signature under which a failure is remembered. */
export const limitsSignature = (limits: FileLimits): string =>
  `t${limits.timeoutS}+${limits.timeoutSPerMiB}/MiB:m${limits.memoryMiB}:z${limits.maxDecompressedBytes}:h${limits.htmlReadabilityMaxDepth}/${limits.htmlMaxDepth}`

/** A file that ran out of its budget (a parse that cannot finish is not an error in the file's format). */
export class FileBudgetError extends Error {
  constructor(
    readonly reason: 'timeout' | 'out-of-memory',
    message: string,
  ) {
    super(message)
    this.name = 'FileBudgetError'
  }
}
