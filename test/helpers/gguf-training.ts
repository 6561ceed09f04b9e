import { afterAll, beforeAll } from 'vitest'
import { ensureTrainerBinary, GgufTrainerUnavailableError } from '../../main/llm/training'
import { openDemoWorkspace, type DemoWorkspace } from './corpus'
import { tempDir } from './services'

export interface GgufTrainingFixture {
  /** The demo world (seed 7, size 0.6), opened before the tests. */
  readonly demo: DemoWorkspace
  /** Its number of questions. */
  readonly total: number
  /** Why the native trainer cannot run here ('' when it can): tests skip with it. */
  readonly unavailable: string
  /** A folder for the run's models, removed after the tests. */
  readonly dir: string
}

/** Why the native trainer cannot run here ('' when it can, after building it if needed): tests skip with it. */
export async function trainerUnavailableReason(): Promise<string> {
  try {
    await ensureTrainerBinary()
    return ''
  } catch (err) {
    if (!(err instanceof GgufTrainerUnavailableError)) throw err
    return err.message
  }
}

/** Registers the hooks of a GGUF training test file: the trainer binary built (or why not), a demo workspace, an output folder. */
export function useGgufTrainingFixture(prefix: string): GgufTrainingFixture {
  const out = tempDir(prefix)
  const state = { demo: undefined as DemoWorkspace | undefined, total: 0, unavailable: '' }
  beforeAll(async () => {
    state.unavailable = await trainerUnavailableReason()
    state.demo = await openDemoWorkspace(7, 0.6)
    state.total = Number(state.demo.db.raw.prepare('select count(*) from questions').pluck().get())
  }, 600_000)
  afterAll(async () => {
    await state.demo?.close()
    out.cleanup()
  })
  return {
    get demo() {
      if (!state.demo) throw new Error('the demo workspace is opened in beforeAll')
      return state.demo
    },
    get total() {
      return state.total
    },
    get unavailable() {
      return state.unavailable
    },
    dir: out.dir,
  }
}
