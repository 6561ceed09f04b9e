/** Worker thread of bench/env-server.ts: runs one cell of HTTP clients (or one client's round trips to a path) against a server and posts the result. */
import { parentPort } from 'node:worker_threads'
import { httpCall, httpDriver, roundTrips, runCell, type CellTask, type Driver, type HttpCall } from './env-server-clients'

type Task = (CellTask & { url: string; token: string }) | { url: string; token: string; path: string; count: number }

const drivers = new Map<string, { driver: Driver; call: HttpCall }>()
parentPort!.on('message', async (task: Task) => {
  let client = drivers.get(task.url)
  if (!client) {
    const call = httpCall(task.url, task.token)
    drivers.set(task.url, (client = { driver: httpDriver(call), call }))
  }
  parentPort!.postMessage('path' in task ? await roundTrips(client.call, task.path, task.count) : await runCell(client.driver, task))
})
