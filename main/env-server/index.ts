/** The environment server for external trainers: episode sessions over the registered environments, and their HTTP/JSON transport. */
export { startEnvServer, isLoopback, bindAddress, MIN_TOKEN_LENGTH, OPEN_ROUTE_GROUPS, type EnvServer, type EnvServerOptions, type OpenRoutes } from './http'
export { EpisodeSessions, EnvServerError, type EnvServerCounters, type SessionOptions } from './sessions'
export { EpisodeRouter, DEFAULT_IDLE_GC_EVERY, defaultWorkerEntry, type RouterOptions } from './router'
export type { EnvWorkerEntry } from './lanes'
export type { EpisodeStorePolicy, StoreMode } from './store'
