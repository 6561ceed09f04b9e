import { join } from 'node:path'
import { createModelDownloader } from 'node-llama-cpp'
import { appDbFile } from '../config/paths'
import { appMigrations } from '../db/migrations'
import { openDatabase } from '../db/open'
import type { AppDatabase } from '../db/schema'
import { defineJobKind } from '../jobs/define-job-kind'
import { ModelRegistry } from '../models/registry'

const OFFLINE = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ENETUNREACH|fetch failed|getaddrinfo/i

/**
 * Downloads a model by `hf:` (or https) URI into <data dir>/models with progress, then registers it.
 * Offline, it fails at once and says so: add the GGUF file by path instead.
 */
export const modelDownloadJob = defineJobKind({
  kind: 'model.download',
  run: async (ctx, { params: { uri }, own }) => {
    const dirPath = join(ctx.dataDir, 'models')
    ctx.progress(0, 'resolve', `Resolving ${uri}`)
    let path: string
    try {
      const downloader = await createModelDownloader({
        modelUri: uri,
        dirPath,
        onProgress: ({ totalSize, downloadedSize }) => {
          ctx.progress(totalSize > 0 ? downloadedSize / totalSize : 0, 'download', `${(downloadedSize / 2 ** 20).toFixed(1)} of ${(totalSize / 2 ** 20).toFixed(1)} MiB`)
          if (ctx.cancelled) void downloader.cancel()
        },
      })
      path = await downloader.download()
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err)
      if (OFFLINE.test(message) || OFFLINE.test(String((err as { cause?: unknown }).cause ?? ''))) {
        throw new Error(`No internet connection to download ${uri}: copy the GGUF file to this machine and register it by path (${message})`)
      }
      throw new Error(`Could not download ${uri}: ${message}`)
    }
    ctx.throwIfCancelled()
    const app = own(await openDatabase<AppDatabase>(appDbFile(ctx.dataDir), appMigrations))
    const model = await new ModelRegistry(app.db).add(path)
    return { result: { path, modelId: model.id }, message: `Downloaded and registered ${model.name} (${path})` }
  },
})
