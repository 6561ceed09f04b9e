import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeTinyLlama, type TinyLlamaOptions, type TinyModelInfo } from './tiny-llama'

/** The real tiny model kept outside the repository (see ../shared/models/PROVENANCE.md). */
export const STORIES_260K = fileURLToPath(new URL('../../../../shared/models/stories260K.gguf', import.meta.url))
export const storiesAvailable = existsSync(STORIES_260K)
export const STORIES_SKIP_REASON = `stories260K.gguf not found at ${STORIES_260K}: skipping tests that need a trained model`

/** A temporary folder for fixture files, removed by cleanup(). */
export function fixtureDir(prefix = 'harness-lab-gguf-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

/** Write a tiny model into dir under a name derived from its options. */
export function tinyModel(dir: string, options: TinyLlamaOptions = {}, name?: string): TinyModelInfo {
  const file = join(dir, name ?? `tiny-${options.vocab ?? 'spm'}-${options.seed ?? 1}.gguf`)
  return writeTinyLlama(file, options)
}

/** Test title for something that needs stories260K: the skip reason itself when the file is absent. */
export function storiesTitle(title: string): string {
  return storiesAvailable ? title : `${title} (skipped: ${STORIES_SKIP_REASON})`
}
