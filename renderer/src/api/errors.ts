import type { ApiErrorBody, Envelope } from '../../../preload/contract/define'

/** An error the backend returned, with its code and validation issues for display. */
export class ApiCallError extends Error {
  constructor(readonly body: ApiErrorBody) {
    super(body.issues?.length ? `${body.message}: ${body.issues.join('; ')}` : body.message)
    this.name = 'ApiCallError'
  }
  get code(): ApiErrorBody['code'] {
    return this.body.code
  }
}

export function unwrap<T>(envelope: Envelope<T>): T {
  if (envelope.ok) return envelope.data
  throw new ApiCallError(envelope.error)
}

/**
 * The one way the renderer turns a thrown value into the line it shows: the backend's message with its
 * validation issues (ApiCallError), an Error's message, or the value itself. Stores keep it in their
 * `error` ref (see stores/attempt.ts); components show it with ErrorNote.
 */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message || err.name
  if (typeof err === 'string') return err
  if (err && typeof err === 'object' && 'message' in err && typeof err.message === 'string') return err.message
  try {
    return JSON.stringify(err) ?? String(err)
  } catch {
    return String(err)
  }
}
