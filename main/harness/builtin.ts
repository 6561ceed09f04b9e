/** The environments this app ships, registered by name in one place. Safe to call any number of times. */
import { freeQueryFactory } from './free-query'
import { graphMenuFactory } from './graph-menu'
import { environmentNames, registerEnvironment } from './registry'
import { statefulFactory, transcriptFactory } from './stateful'

export function registerBuiltinEnvironments(): void {
  const known = new Set(environmentNames())
  for (const factory of [graphMenuFactory, freeQueryFactory, statefulFactory, transcriptFactory]) {
    if (!known.has(factory.name)) registerEnvironment(factory)
  }
}
