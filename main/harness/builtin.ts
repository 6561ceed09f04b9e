/**
 * The environments this app ships, as a static list of declarations: every process (main, job and
 * env-server workers, the CLI, benches) sees the same registry on import, with nothing to register first.
 */
import { freeQueryFactory } from './free-query'
import { graphMenuFactory } from './graph-menu'
import { environmentRegistry, type EnvironmentRegistry } from './registry'
import { statefulFactory, transcriptFactory } from './stateful'
import type { EnvContext, Environment, EnvironmentFactory } from './types'

export const environments: EnvironmentRegistry = environmentRegistry([graphMenuFactory, freeQueryFactory, statefulFactory, transcriptFactory])

export const environmentNames = (): string[] => environments.names()
export const environmentFactory = (name: string): EnvironmentFactory => environments.factory(name)
export const createEnvironment = (name: string, ctx: EnvContext, delta: Record<string, unknown> = {}): Environment => environments.create(name, ctx, delta)
export const resolvedConfig = (name: string, delta: Record<string, unknown> = {}): Record<string, unknown> => environments.resolvedConfig(name, delta)
export const environmentCatalog = () => environments.catalog()
