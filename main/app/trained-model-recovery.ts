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
export async function registerUnclaimedTrainedModels(dataDir: string, models: Pick<ModelRegistry, 'add'>): Promise<string[]> {
  const registered: string[] = []
  for (const path of unclaimedTrainedFiles(trainedModelsDir(dataDir))) {
    try {
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
