// The demo-workspace helpers live in bench/support/ (benches use them too, and bench/ imports nothing from test/).
import { afterAll, beforeAll } from 'vitest'
import { openDemoWorkspace, type DemoWorkspace } from '../../bench/support/corpus'

export * from '../../bench/support/corpus'

/** The demo world of `seed` and `size` for one test file: opened before its tests, closed after them. */
export function useDemoWorkspace(seed: number, size: number): { readonly workspace: DemoWorkspace } {
  let workspace: DemoWorkspace | undefined
  beforeAll(async () => {
    workspace = await openDemoWorkspace(seed, size)
  }, 600_000)
  afterAll(() => workspace?.close())
  return {
    get workspace() {
      if (!workspace) throw new Error('the demo workspace opens in beforeAll')
      return workspace
    },
  }
}
