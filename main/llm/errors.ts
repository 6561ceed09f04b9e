/**
 * Typed failures of the policy runtime. Callers (API handlers, the UI) branch on `code`; the message
 * is written for a researcher looking at a model picker, not for a C++ developer.
 */
export type PolicyErrorCode =
  | 'file-not-found'
  | 'not-a-file'
  | 'unreadable'
  | 'file-empty'
  | 'not-gguf'
  | 'truncated'
  | 'corrupt'
  | 'unsupported-gguf-version'
  | 'unsupported-architecture'
  | 'not-a-model'
  /** A model that is not F32 throughout, given for training (gguf-check.ts). */
  | 'not-f32'
  | 'load-failed'
  | 'context-failed'
  | 'runtime-unavailable'
  | 'invalid-input'
  | 'generation-failed'
  | 'disposed'

export class PolicyError extends Error {
  override readonly name: string = 'PolicyError'
  constructor(
    readonly code: PolicyErrorCode,
    message: string,
    readonly detail?: { path?: string; cause?: unknown; log?: string[] },
  ) {
    super(message, detail?.cause === undefined ? undefined : { cause: detail.cause })
  }
}

/** A model or adapter file that could not be read as GGUF. */
export class ModelFileError extends PolicyError {
  override readonly name: string = 'ModelFileError'
}

export function isPolicyError(value: unknown): value is PolicyError {
  return value instanceof PolicyError
}
