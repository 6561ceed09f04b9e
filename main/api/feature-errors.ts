import { ApiError } from '../../preload/contract'
import { GraphError } from '../graph/store'
import { RetrievalError } from '../retrieval'

/** Retrieval and graph errors are the caller's to fix (bad regex, unknown id, no vectors): they become API errors. */
export async function asApiErrors<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (err) {
    if (err instanceof RetrievalError || err instanceof GraphError) throw new ApiError(err.code === 'not-found' ? 'NOT_FOUND' : 'VALIDATION', err.message)
    throw err
  }
}
