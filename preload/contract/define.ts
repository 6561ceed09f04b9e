import type { z } from 'zod'

/** A route: validated input, validated output. Handlers live in main/api, callers in renderer and CLI. */
export interface RouteDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  input: I
  output: O
  summary: string
}

export const route = <I extends z.ZodType, O extends z.ZodType>(summary: string, input: I, output: O): RouteDef<I, O> => ({
  summary,
  input,
  output,
})

export type ApiErrorCode = 'VALIDATION' | 'NOT_FOUND' | 'CONFLICT' | 'UNSUPPORTED' | 'UNAUTHORIZED' | 'INTERNAL'

export interface ApiErrorBody {
  code: ApiErrorCode
  message: string
  /** Validation issues as `path: message` lines, when code is VALIDATION. */
  issues?: string[]
}

/** What every transport carries back for a call: IPC and HTTP alike. */
export type Envelope<T> = { ok: true; data: T } | { ok: false; error: ApiErrorBody }

export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly issues?: string[],
  ) {
    super(message)
    this.name = 'ApiError'
  }

  toBody(): ApiErrorBody {
    return this.issues ? { code: this.code, message: this.message, issues: this.issues } : { code: this.code, message: this.message }
  }
}

/** Transport names: the only channel strings in the code base. */
export const channels = {
  ipcCall: 'harness:call',
  ipcEvent: 'harness:event',
  httpCall: '/api/call/',
  httpEvents: '/api/events',
  /** The event stream's word to a page that missed events no longer kept: its state is stale, reload. */
  httpResync: 'stream.resync',
  /** Name of the global the Electron preload exposes. */
  bridgeGlobal: 'harness',
} as const
