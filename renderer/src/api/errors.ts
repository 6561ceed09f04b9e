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
