/**
 * The one API contract. Route name -> validated input/output; event name -> payload.
 * Used by the Electron preload bridge, the browser bridge, the backend dispatcher, the CLI and the renderer.
 */
import type { z } from 'zod'
import { ablationRoutes } from './ablations'
import { corpusRoutes } from './corpus'
import { envServerRoutes } from './env-server'
import { documentRoutes } from './documents'
import { exportRoutes } from './exports'
import { findingsRoutes } from './findings'
import { graphRoutes } from './graph'
import { jobEvents, jobRoutes } from './job'
import { modelRoutes } from './models'
import { questionRoutes } from './questions'
import { runRoutes } from './runs'
import { systemRoutes } from './system'
import { trainingRoutes } from './training'
import { workspaceRoutes } from './workspace'

export * from './ablations'
export * from './bounds'
export * from './corpus'
export * from './define'
export * from './env-server'
export * from './documents'
export * from './exports'
export * from './findings'
export * from './graph'
export * from './job'
export * from './metric-info'
export * from './models'
export * from './output-path'
export * from './paired'
export * from './protocols'
export * from './questions'
export * from './question-range'
export * from './runs'
export * from './run-config'
export * from './system'
export * from './trajectory'
export * from './training'
export * from './credit-quality'
export * from './workspace'

export const routes = { ...systemRoutes, ...workspaceRoutes, ...jobRoutes, ...corpusRoutes, ...graphRoutes, ...runRoutes, ...modelRoutes, ...trainingRoutes, ...envServerRoutes, ...questionRoutes, ...ablationRoutes, ...documentRoutes, ...exportRoutes, ...findingsRoutes }
export const events = { ...jobEvents }

export type Routes = typeof routes
export type RouteName = keyof Routes
export type RouteInput<R extends RouteName> = z.input<Routes[R]['input']>
export type RouteParsedInput<R extends RouteName> = z.output<Routes[R]['input']>
export type RouteOutput<R extends RouteName> = z.output<Routes[R]['output']>
export type EventName = keyof typeof events
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>

export const isRouteName = (name: unknown): name is RouteName => typeof name === 'string' && Object.hasOwn(routes, name)
export const isEventName = (name: unknown): name is EventName => typeof name === 'string' && Object.hasOwn(events, name)

/** The API surface every bridge implements. */
export interface HarnessApi {
  call<R extends RouteName>(route: R, input: RouteInput<R>): Promise<RouteOutput<R>>
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void
  /**
   * Only where the event stream can be lost (browser mode): `listener` hears why live updates stopped or
   * wait on a reconnect, and null once they flow again.
   */
  onStreamProblem?(listener: (problem: string | null) => void): () => void
}

