/** Worker thread of bench/env-server.ts: runs one cell of HTTP clients against the server and posts the result. */
import { parentPort } from 'node:worker_threads'
import { httpDriver, runCell, type CellTask } from './env-server-clients'

type Task = CellTask & { url: string; token: string }

const drivers = new Map<string, ReturnType<typeof httpDriver>>()
parentPort!.on('message', async (task: Task) => {
  let driver = drivers.get(task.url)
  if (!driver) drivers.set(task.url, (driver = httpDriver(task.url, task.token)))
  parentPort!.postMessage(await runCell(driver, task))
})
