import { z } from 'zod'
import { ApiError, JobKind, jobKinds, type JobParams } from '../../preload/contract'

/** A job kind's parameters checked against the contract, defaults applied; bad ones are a VALIDATION error. */
export function parseJobParams<K extends JobKind>(kind: K, params: unknown): JobParams<K> {
  if (!JobKind.safeParse(kind).success) throw new ApiError('VALIDATION', `Unknown job kind: ${String(kind).slice(0, 100)}`)
  const parsed = (jobKinds[kind].params as z.ZodType).safeParse(params)
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `params${i.path.map((p) => `.${String(p)}`).join('')}: ${i.message}`)
    throw new ApiError('VALIDATION', `Invalid parameters for ${kind}: ${issues.join('; ')}`, issues)
  }
  return parsed.data as JobParams<K>
}
