import { z } from 'zod'
import { ApiError, isRouteName, routes, type Envelope, type RouteName, type RouteOutput, type RouteParsedInput } from '../../preload/contract'

export type Handlers = { [R in RouteName]: (input: RouteParsedInput<R>) => Promise<RouteOutput<R>> }

const issuesOf = (err: z.ZodError): string[] => err.issues.map((i) => `${i.path.length ? i.path.join('.') : '(input)'}: ${i.message}`)

/**
 * The single entry for every transport: checks the route exists, validates input, runs the handler,
 * validates output, and turns every failure into an error envelope. It never throws.
 */
export async function dispatch(handlers: Handlers, route: unknown, input: unknown): Promise<Envelope<unknown>> {
  if (!isRouteName(route)) {
    return { ok: false, error: { code: 'NOT_FOUND', message: `Unknown route: ${String(route).slice(0, 100)}` } }
  }
  const def = routes[route]
  const parsed = def.input.safeParse(input ?? {})
  if (!parsed.success) {
    return { ok: false, error: { code: 'VALIDATION', message: `Invalid input for ${route}`, issues: issuesOf(parsed.error) } }
  }
  try {
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
    console.error(`route ${route} failed:`, err)
    return { ok: false, error: { code: 'INTERNAL', message: err instanceof Error ? err.message : String(err) } }
  }
}
