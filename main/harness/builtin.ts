/** The environments this app ships, registered by name. Safe to call any number of times. */
import { freeQueryFactory } from './free-query'
import { graphMenuFactory } from './graph-menu'
import { environmentNames, registerEnvironment } from './registry'

export function registerBuiltinEnvironments(): void {
  const known = new Set(environmentNames())
  for (const factory of [graphMenuFactory, freeQueryFactory]) {
    if (!known.has(factory.name)) registerEnvironment(factory)
  }
}
