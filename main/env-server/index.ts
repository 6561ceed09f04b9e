/** The environment server for external trainers: episode sessions over the registered environments, and their HTTP/JSON transport. */
export { startEnvServer, isLoopback, MIN_TOKEN_LENGTH, type EnvServer, type EnvServerOptions } from './http'
export { EpisodeSessions, EnvServerError, type EnvServerCounters, type SessionOptions } from './sessions'
export type { EpisodeStorePolicy, StoreMode } from './store'
