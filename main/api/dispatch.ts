import { z } from 'zod'
import { storageFailureOf } from '../db/storage-error'
import { ApiError, isRouteName, routes, type Envelope, type RouteName, type RouteOutput, type RouteParsedInput } from '../../preload/contract'

export type Handlers = { [R in RouteName]: (input: RouteParsedInput<R>) => Promise<RouteOutput<R>> }

const issuesOf = (err: z.ZodError): string[] => err.issues.map((i) => `${i.path.length ? i.path.join('.') : '(input)'}: ${i.message}`)

/** Keys that name JavaScript's object machinery rather than data: refused anywhere in an input. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])
/** Deeper inputs are refused before validation (no contract input nests anywhere near this). */
export const MAX_INPUT_DEPTH = 64

const pathText = (path: readonly (string | number)[]): string => (path.length ? path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('').replace(/^\./, '') : '(input)')

/**
 * What is wrong with an input's shape before any schema sees it: a prototype key (`__proto__`,
 * `constructor`, `prototype`) at any depth, or nesting deeper than MAX_INPUT_DEPTH. Walked without
 * recursion, so a hostile input cannot overflow the stack here. Null when it is fine.
 */
export function refusedInput(input: unknown): { message: string; issues: string[] } | null {
  const stack: Array<{ value: unknown; path: (string | number)[] }> = [{ value: input, path: [] }]
  while (stack.length > 0) {
    const { value, path } = stack.pop()!
    if (value === null || typeof value !== 'object') continue
    if (path.length >= MAX_INPUT_DEPTH) {
      return { message: `Refused: the input nests deeper than ${MAX_INPUT_DEPTH} levels`, issues: [`${pathText(path)}: nested too deeply`] }
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i -= 1) stack.push({ value: value[i], path: [...path, i] })
      continue
    }
    for (const key of Object.keys(value)) {
      if (FORBIDDEN_KEYS.has(key)) {
        const at = pathText([...path, key])
        return {
          message: `Refused: the input contains the key "${key}" (at ${at}); the keys __proto__, constructor and prototype are never accepted`,
          issues: [`${at}: forbidden key "${key}"`],
        }
      }
      stack.push({ value: (value as Record<string, unknown>)[key], path: [...path, key] })
    }
  }
  return null
}

/**
 * The single entry for every transport: checks the route exists, refuses prototype keys and absurd
 * nesting, validates input, runs the handler, validates output, and turns every failure into an
 * error envelope. It never throws.
 */
export async function dispatch(handlers: Handlers, route: unknown, input: unknown): Promise<Envelope<unknown>> {
  if (!isRouteName(route)) {
    return { ok: false, error: { code: 'NOT_FOUND', message: `Unknown route: ${String(route).slice(0, 100)}` } }
  }
  try {
    const refused = refusedInput(input)
    if (refused) return { ok: false, error: { code: 'VALIDATION', message: refused.message, issues: refused.issues } }
    const def = routes[route]
    const parsed = def.input.safeParse(input ?? {})
    if (!parsed.success) {
      return { ok: false, error: { code: 'VALIDATION', message: `Invalid input for ${route}`, issues: issuesOf(parsed.error) } }
    }
    const handler = handlers[route] as (i: unknown) => Promise<unknown>
    const output = await handler(parsed.data)
    const checked = def.output.safeParse(output)
    if (!checked.success) {
      console.error(`output of ${route} does not match the contract:`, issuesOf(checked.error))
      return { ok: false, error: { code: 'INTERNAL', message: `The backend produced an invalid response for ${route}` } }
    }
    return { ok: true, data: checked.data }
  } catch (err) {
    if (err instanceof ApiError) return { ok: false, error: err.toBody() }
    if (err instanceof z.ZodError) return { ok: false, error: { code: 'VALIDATION', message: 'Invalid input', issues: issuesOf(err) } }
    // A full or read-only disk is not a bug: its message is the whole story (the CLI and the pages say what to do).
    if (!storageFailureOf(err)) console.error(`route ${route} failed:`, err)
    return { ok: false, error: { code: 'INTERNAL', message: err instanceof Error ? err.message : String(err) } }
  }
}
