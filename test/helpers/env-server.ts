/** A demo workspace behind a real environment server for one test file: started before its tests, closed after them. */
import { afterAll, beforeAll } from 'vitest'
import { startEnvServer, type EnvServer } from '../../main/env-server'
import { openDemoWorkspace, type DemoWorkspace } from './corpus'

export interface ServedDemo {
  readonly demo: DemoWorkspace
  readonly server: EnvServer
  /** One authorised request to the server, a JSON body when given. */
  request(method: string, path: string, body?: unknown): Promise<Response>
}

/** A pooled server (one worker thread) over the demo world of `seed` and `size`. */
export function useServedDemo(seed = 5, size = 0.3): ServedDemo {
  let demo: DemoWorkspace | undefined
  let server: EnvServer | undefined
  beforeAll(async () => {
    demo = await openDemoWorkspace(seed, size)
    server = await startEnvServer({ raw: demo.db.raw, appVersion: 'test', port: 0, workers: 1 })
  }, 600_000)
  afterAll(async () => {
    await server?.close()
    await demo?.close()
  })
  return {
    get demo() {
      if (!demo) throw new Error('the demo workspace opens in beforeAll')
      return demo
    },
    get server() {
      if (!server) throw new Error('the environment server starts in beforeAll')
      return server
    },
    request(method, path, body) {
      return fetch(`${this.server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.server.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    },
  }
}
