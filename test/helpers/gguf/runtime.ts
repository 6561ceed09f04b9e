import { afterAll, beforeAll } from 'vitest'
import { LlamaRuntime } from '../../../main/llm/llama-runtime'
import { fixtureDir } from '../../../bench/support/gguf/fixtures'

/**
 * One llama runtime and one fixture folder for a test file, made before its tests and disposed after.
 * Returns accessors, since both exist only once beforeAll has run.
 */
export function useRuntimeFixture(): { runtime: () => LlamaRuntime; tmp: ReturnType<typeof fixtureDir> } {
  const tmp = fixtureDir()
  let runtime: LlamaRuntime | undefined
  beforeAll(async () => {
    runtime = await LlamaRuntime.create({ gpu: 'auto' })
  }, 600_000)
  afterAll(async () => {
    await runtime?.dispose()
    tmp.cleanup()
  })
  return {
    runtime: () => {
      if (!runtime) throw new Error('the runtime is created in beforeAll')
      return runtime
    },
    tmp,
  }
}
