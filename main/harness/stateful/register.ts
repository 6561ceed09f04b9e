/**
 * Registers Harness-1 under two names: "stateful" (working memory, every mechanism on) and
 * "transcript" (the append-only baseline: the same tools, every mechanism off, raw observations
 * appended). Both take the same config keys, so any mix is a delta over either.
 */
import { environmentNames, registerEnvironment } from '../registry'
import type { EnvContext, EnvironmentFactory } from '../types'
import { STATEFUL_DEFAULTS, TRANSCRIPT_DEFAULTS, type StatefulConfig } from './config'
import { StatefulEnvironment, type StatefulContext } from './environment'

export const STATEFUL_ENVIRONMENT = 'stateful'
export const TRANSCRIPT_ENVIRONMENT = 'transcript'

export const statefulFactory: EnvironmentFactory<StatefulConfig> = {
  name: STATEFUL_ENVIRONMENT,
  description:
    'Harness-1: stateful working memory (candidate pool, curated set with importance tags, evidence graph, verification, search history, budget markers) over tool calls; every mechanism switchable.',
  defaults: STATEFUL_DEFAULTS,
  create: (ctx: EnvContext, config: StatefulConfig) => new StatefulEnvironment(ctx as StatefulContext, config, STATEFUL_ENVIRONMENT),
}

export const transcriptFactory: EnvironmentFactory<StatefulConfig> = {
  name: TRANSCRIPT_ENVIRONMENT,
  description: 'Harness-1 baseline: the same tools with an append-only transcript of raw observations instead of working memory.',
  defaults: TRANSCRIPT_DEFAULTS,
  create: (ctx: EnvContext, config: StatefulConfig) => new StatefulEnvironment(ctx as StatefulContext, config, TRANSCRIPT_ENVIRONMENT),
}

/** Registers both environments; calling it again is a no-op. */
export function registerStatefulEnvironments(): void {
  const known = new Set(environmentNames())
  for (const f of [statefulFactory, transcriptFactory]) if (!known.has(f.name)) registerEnvironment(f)
}
