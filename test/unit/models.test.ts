import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tinyModel } from '../helpers/gguf'
import { startBackend, tempDir, type TestBackend } from '../helpers/services'

describe('model registry', () => {
  const tmp = tempDir()
  let backend: TestBackend
  beforeAll(async () => {
    backend = await startBackend()
  })
  afterAll(async () => {
    await backend.close()
    tmp.cleanup()
  })

  it('registers a GGUF file with its metadata, without loading it', async () => {
    const file = tinyModel(tmp.dir, { vocab: 'spm', seed: 3 }).file
    const m = await backend.call('models.add', { path: file })
    expect(m).toMatchObject({ path: file, role: 'policy', architecture: 'llama', embeddingLength: 64, layers: 2, loaded: null })
    // Named by its file, not by the header's general.name (often just the architecture).
    expect(m.name).toBe(basename(file))
    expect(m.sha256).toMatch(/^[0-9a-f]{64}$/)
    expect(m.parameterCount).toBeGreaterThan(1000)
    expect((await backend.call('models.list', {})).map((x) => x.id)).toEqual([m.id])
  })

  it('reads the provenance a GGUF training run writes beside its weights, only when its hash matches the file', async () => {
    const trained = tinyModel(tmp.dir, { vocab: 'spm', seed: 4 }, 'trained.gguf').file
    const other = tinyModel(tmp.dir, { vocab: 'spm', seed: 5 }, 'other.gguf').file
    const sha = createHash('sha256').update(readFileSync(trained)).digest('hex')
    const provenance = { baseModel: '/models/base.gguf', baseSha256: 'a'.repeat(64), runId: 7, step: 3 }
    writeFileSync(`${trained}.provenance.json`, JSON.stringify({ path: trained, sha256: sha, ...provenance }))
    writeFileSync(`${other}.provenance.json`, JSON.stringify({ path: other, sha256: sha, ...provenance }))
    expect((await backend.call('models.add', { path: trained })).provenance).toEqual(provenance)
    expect((await backend.call('models.add', { path: other })).provenance).toBeNull()
    expect((await backend.call('models.list', {})).find((m) => m.path === trained)?.provenance).toEqual(provenance)
    for (const m of await backend.call('models.list', {})) if (m.path === trained || m.path === other) await backend.call('models.remove', { id: m.id })
  })

  it('loads on the best backend available and unloads', async () => {
    const [m] = await backend.call('models.list', {})
    const loaded = await backend.call('models.load', { id: m!.id })
    expect(loaded.loaded).toMatchObject({ totalLayers: expect.any(Number) })
    const runtime = await backend.call('models.runtime', {})
    expect(['cpu', 'cuda', 'vulkan', 'metal']).toContain(runtime.backend)
    expect(runtime.threads).toBeGreaterThanOrEqual(1)
    expect(runtime.threads).toBeLessThanOrEqual(runtime.cores)
    expect(runtime.processRss).toBeGreaterThan(0)
    expect((await backend.call('models.unload', { id: m!.id })).loaded).toBeNull()
    await backend.call('models.remove', { id: m!.id })
    expect(await backend.call('models.list', {})).toEqual([])
  })

  it('says clearly that a download needs the internet when there is none', async () => {
    const job = await backend.call('job.start', { kind: 'model.download', params: { uri: 'hf:nobody/no-such-model-GGUF:Q4_K_M' } })
    const done = await backend.services.jobs.waitFor(job.id)
    expect(done.status).toBe('failed')
    // Offline (as here and in CI) the message says so; with internet the repository does not exist.
    expect(done.error).toMatch(/No internet connection|Could not download/)
  })

  it('refuses files that are not GGUF models with a clear error, and keeps working', async () => {
    for (const m of await backend.call('models.list', {})) await backend.call('models.remove', { id: m.id })
    const text = join(tmp.dir, 'notes.gguf')
    writeFileSync(text, 'this is a text file, not a model')
    await expect(backend.call('models.add', { path: text })).rejects.toMatchObject({ body: { code: 'VALIDATION', message: expect.stringMatching(/GGUF/i) } })
    await expect(backend.call('models.add', { path: join(tmp.dir, 'missing.gguf') })).rejects.toMatchObject({ body: { code: 'VALIDATION' } })
    expect(await backend.call('models.list', {})).toEqual([])
  })
})
