/** The harness layer: the environment interface and registry, the one episode loop, and the built-in environments. */
export { registerBuiltinEnvironments } from './builtin'
export { createEnvironment, environmentCatalog, environmentFactory, environmentNames, registerEnvironment, resolvedConfig } from './registry'
export { EpisodeRun, runEpisode, type EpisodeLoopOptions, type StepTiming } from './run-episode'
export type { Trajectory, TrajectoryStep } from './trajectory'
export type { Policy, PolicyDecision } from './policy'
export type { Answerer } from './answerer'
export { parseMenuReply, type MenuReply } from './sentence-substrate/menu-reply'
export * from './types'
