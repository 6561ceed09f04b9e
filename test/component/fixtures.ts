/** Shared pieces of the component tests: an API that counts its listeners and calls, a router over the real views, a demo workspace with runs. */
import { fileURLToPath, pathToFileURL } from 'node:url'
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia, type Pinia } from 'pinia'
import { defineComponent, h } from 'vue'
import { createMemoryHistory, createRouter, RouterView, type Router } from 'vue-router'
import type { HarnessApi, IngestSource, RouteName } from '../../preload/contract'
import { callsInFlight, inProcessApi } from '../helpers/in-process-api'
import { startBackend, type TestBackend } from '../helpers/services'

/**
 * Real services on a temporary folder, like test/helpers/services.ts's startBackend, but with a job
 * worker that starts under happy-dom (whose global URL is not Node's): the entry is a Node file URL.
 */
export function startJobBackend(): Promise<TestBackend> {
  const entry = fileURLToPath(new globalThis.URL('./job-worker.mjs', import.meta.url).href)
  return startBackend(undefined, { worker: { url: pathToFileURL(entry) }, tempPrefix: 'harness-lab-component-' })
}

/** A new workspace with `source` ingested through the ingest job, as the page would start it; fails with the job's error. */
export async function ingestedWorkspace(backend: TestBackend, name: string, source: IngestSource): Promise<string> {
  const workspaceId = (await backend.call('workspace.create', { name })).id
  const ingest = await backend.call('job.start', { kind: 'corpus.ingest', workspaceId, params: { source } })
  const done = await backend.services.jobs.waitFor(ingest.id)
  if (done.status !== 'done') throw new Error(`Ingest of ${name} ended ${done.status}: ${done.error ?? ''}`)
  return workspaceId
}

/** One turn of the event loop: promises flushed, due timers run. */
async function turn(ms = 0): Promise<void> {
  await flushPromises()
  await new Promise((r) => setTimeout(r, ms))
  await flushPromises()
}

/**
 * Lets the page finish what it started: polls until no API call is in flight (a page's loads chain calls;
 * the in-process API counts them), turning the event loop at least once. A timer set further out (a
 * search delay) or a job's event needs until(). The limit only catches a hang.
 */
export async function settle(timeoutMs = 300_000): Promise<void> {
  const t0 = Date.now()
  do {
    if (Date.now() - t0 > timeoutMs) throw new Error('Timed out waiting for the API calls in flight')
    await turn(callsInFlight() > 0 ? 5 : 0)
  } while (callsInFlight() > 0)
}

/** Polls until `check` holds (the backend answers over real SQLite and worker threads); the limit only catches a hang. */
export async function until(check: () => boolean, what: string, timeoutMs = 300_000): Promise<void> {
  const t0 = Date.now()
  while (!check()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`Timed out waiting for ${what}`)
    await turn(10)
  }
}

export interface CountingApi {
  api: HarnessApi
  /** Event listeners registered and not yet removed. */
  listeners(): number
  /** Calls of a route so far. */
  calls(route: RouteName): number
}

/** The in-process API, counting live listeners (each `on` until its unsubscribe runs) and calls per route. */
export function countingApi(backend: TestBackend): CountingApi {
  const inner = inProcessApi(backend)
  let listeners = 0
  const calls = new Map<string, number>()
  return {
    api: {
      call(route, input) {
        calls.set(route, (calls.get(route) ?? 0) + 1)
        return inner.call(route, input)
      },
      on(event, listener) {
        listeners++
        const off = inner.on(event, listener)
        let removed = false
        return () => {
          if (removed) return
          removed = true
          listeners--
          off()
        }
      },
    },
    listeners: () => listeners,
    calls: (route) => calls.get(route) ?? 0,
  }
}

/** The app's workspace routes over the real views, in memory. */
export async function appRouter(path: string): Promise<Router> {
  const [RunsView, RunView, TrajectoryView, AblationsView, RewardsView, TrainingView] = await Promise.all([
    import('../../renderer/src/views/RunsView.vue'),
    import('../../renderer/src/views/RunView.vue'),
    import('../../renderer/src/views/TrajectoryView.vue'),
    import('../../renderer/src/views/AblationsView.vue'),
    import('../../renderer/src/views/RewardsView.vue'),
    import('../../renderer/src/views/TrainingView.vue'),
  ])
  const stub = { render: () => h('p', 'elsewhere') }
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/', component: stub },
      { path: '/workspaces/:id', component: stub },
      { path: '/workspaces/:id/runs', component: RunsView.default },
      { path: '/workspaces/:id/runs/:runId', component: RunView.default },
      { path: '/workspaces/:id/ablations', component: AblationsView.default },
      { path: '/workspaces/:id/rewards', component: RewardsView.default },
      { path: '/workspaces/:id/training', component: TrainingView.default },
      { path: '/workspaces/:id/episodes/:episodeId', component: TrajectoryView.default },
    ],
  })
  await router.push(path)
  await router.isReady()
  return router
}

/** The shell a routed view mounts in. */
export const Shell = defineComponent({ render: () => h(RouterView) })

/** The shell mounted in the document with a router and a Pinia (made active), once its first loads settled. */
export async function mountShell(router: Router, pinia: Pinia = createPinia()): Promise<VueWrapper> {
  setActivePinia(pinia)
  const wrapper = mount(Shell, { global: { plugins: [pinia, router] }, attachTo: document.body })
  await settle()
  return wrapper
}

/** The app's workspace routes (appRouter) at `path`, mounted with a fresh Pinia. */
export async function mountApp(path: string): Promise<VueWrapper> {
  const pinia = createPinia()
  setActivePinia(pinia)
  return mountShell(await appRouter(path), pinia)
}

export interface DemoRuns {
  workspaceId: string
  /** A Harness-G (menu) run and a Harness-1 (stateful) run of scripted policies, done. */
  menuRunId: number
  harness1RunId: number
}

/** A workspace holding the demo world, evaluated by greedy in graph-menu and by the tool script in stateful. */
export async function demoRuns(backend: TestBackend): Promise<DemoRuns> {
  const workspaceId = (await backend.call('workspace.create', { name: 'Component runs' })).id
  const ingest = await backend.call('job.start', { kind: 'corpus.ingest', workspaceId, params: { source: { kind: 'demo', seed: 3, size: 0.5 } } })
  const ingested = await backend.services.jobs.waitFor(ingest.id)
  if (ingested.status !== 'done') throw new Error(`demo ingest ${ingested.status}: ${ingested.error}`)
  const setId = (await backend.call('questions.sets', { workspaceId }))[0]!.id
  const evaluate = async (environment: string, policy: string, limit: number): Promise<number> => {
    const job = await backend.call('job.start', { kind: 'eval.run', workspaceId, params: { name: `${policy} in ${environment}`, environment, policy: { kind: 'scripted', name: policy }, questionSetId: setId, limit } })
    const done = await backend.services.jobs.waitFor(job.id)
    if (done.kind !== 'eval.run' || done.status !== 'done' || !done.result) throw new Error(`evaluation ${done.status}: ${done.error}`)
    return done.result.runId
  }
  const menuRunId = await evaluate('graph-menu', 'greedy', 4)
  const harness1RunId = await evaluate('stateful', 'scripted-tools', 3)
  return { workspaceId, menuRunId, harness1RunId }
}
