/**
 * Registers Harness-1 under two names: "stateful" (working memory, every mechanism on) and
 * "transcript" (the append-only baseline: the same tools, every mechanism off, raw observations
 * appended). Both take the same config keys, so any mix is a delta over either.
 */
import type { EnvContext, EnvironmentFactory } from '../types'
import { HARNESS1_ABLATIONS, STATEFUL_DEFAULTS, TRANSCRIPT_DEFAULTS, type StatefulConfig } from './config'
import { describeStatefulStep } from './describe-step'
import { StatefulEnvironment, type StatefulContext } from './environment'

export const STATEFUL_ENVIRONMENT = 'stateful'
export const TRANSCRIPT_ENVIRONMENT = 'transcript'

export const statefulFactory: EnvironmentFactory<StatefulConfig> = {
  name: STATEFUL_ENVIRONMENT,
  description:
    'Harness-1: stateful working memory (candidate pool, curated set with importance tags, evidence graph, verification, search history, budget markers) over tool calls; every mechanism switchable.',
  family: 'harness-1',
  protocol: 'harness1-tools',
  rewardScheme: 'harness1',
  presets: HARNESS1_ABLATIONS,
  defaults: STATEFUL_DEFAULTS,
  describeStep: describeStatefulStep,
  create: (ctx: EnvContext, config: StatefulConfig) => new StatefulEnvironment(ctx as StatefulContext, config, STATEFUL_ENVIRONMENT),
}

export const transcriptFactory: EnvironmentFactory<StatefulConfig> = {
  name: TRANSCRIPT_ENVIRONMENT,
  description: 'Harness-1 baseline: the same tools with an append-only transcript of raw observations instead of working memory.',
  family: 'harness-1',
  protocol: 'harness1-tools',
  rewardScheme: 'harness1',
  presets: [{ name: 'transcript', label: 'Transcript baseline', delta: {} }],
  defaults: TRANSCRIPT_DEFAULTS,
  describeStep: describeStatefulStep,
  create: (ctx: EnvContext, config: StatefulConfig) => new StatefulEnvironment(ctx as StatefulContext, config, TRANSCRIPT_ENVIRONMENT),
}
