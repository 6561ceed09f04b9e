import type { Services } from '../../app/services'
import type { Handlers } from '../dispatch'
import { ablationHandlers } from './ablations'
import { corpusHandlers } from './corpus'
import { envServerHandlers } from './env-server'
import { documentHandlers } from './documents'
import { exportHandlers } from './exports'
import { findingsHandlers } from './findings'
import { graphHandlers } from './graph'
import { jobHandlers } from './job'
import { modelHandlers } from './models'
import { questionHandlers } from './questions'
import { runHandlers } from './runs'
import { systemHandlers, type HostCapabilities } from './system'
import { trainingHandlers } from './training'
import { workspaceHandlers } from './workspace'

export type { HostCapabilities } from './system'

/**
 * Every route's handler, one group per contract file. Each handler maps validated input to one
 * feature call; dispatch() validates input and output around it.
 */
export function createHandlers(services: Services, host: HostCapabilities): Handlers {
  return {
    ...systemHandlers(services, host),
    ...workspaceHandlers(services),
    ...jobHandlers(services),
    ...corpusHandlers(services),
    ...graphHandlers(services),
    ...runHandlers(services),
    ...modelHandlers(services),
    ...trainingHandlers(services),
    ...envServerHandlers(services),
    ...questionHandlers(services),
    ...ablationHandlers(services),
    ...documentHandlers(services),
    ...exportHandlers(services),
    ...findingsHandlers(services),
  }
}
