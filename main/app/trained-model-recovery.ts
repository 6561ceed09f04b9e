import { resolve } from 'node:path'
import { trainedModelsDir } from '../config/paths'
import { inspectModelFile } from '../llm/model-file'
import type { ModelRegistry } from '../models/registry'
import { markRegistered, unclaimedSha256, unclaimedTrainedFiles } from '../models/provenance'

/**
 * At start-up, registers the final weights of training runs whose job stopped between saving them and
 * registering them (a crash, kill -9, a power cut): each such file's sidecar is not marked registered
 * (models/provenance.ts). Only a file whose bytes still hash to the sidecar's SHA-256 is taken, so
 * nothing half-written or replaced is registered; a file that fails is named and left for the next start.
 * The paths registered.
 */
export async function registerUnclaimedTrainedModels(dataDir: string, models: Pick<ModelRegistry, 'add' | 'list'>): Promise<string[]> {
  const registered: string[] = []
  const unclaimed = unclaimedTrainedFiles(trainedModelsDir(dataDir))
  if (unclaimed.length === 0) return registered
  const known = new Set((await models.list()).map((m) => m.path))
  for (const path of unclaimed) {
    try {
      // Registered by a job from before the mark (or by one that died after registering): marked, not hashed again.
      if (known.has(resolve(path))) {
        markRegistered(path)
        continue
      }
      const claimed = unclaimedSha256(path)
      const { sha256 } = await inspectModelFile(path, { hash: true })
      if (!claimed || sha256 !== claimed) continue
      await models.add(path, 'policy')
      markRegistered(path)
      registered.push(path)
    } catch (err) {
      console.warn(`Trained model ${path} was not registered: ${(err as Error).message}`)
    }
  }
  return registered
}
