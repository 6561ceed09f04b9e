/**
 * LoRA adapters registered against base models (app.db `lora_adapters`). Registering checks from the two
 * GGUF headers that the adapter fits the base (main/llm/lora-check.ts), so a mismatch is a
 * validation error naming the tensor, long before an evaluation would create a context with it.
 */
import type { Selectable } from 'kysely'
import { ApiError, type LoraPairing } from '../../preload/contract'
import type { ModelTable } from '../db/schema'
import { PolicyError } from '../llm/errors'
import { checkLoraFit } from '../policy/llm-policy'
import { modelColumns, type ModelStore } from './store'

export class LoraPairings {
  constructor(
    private readonly store: ModelStore,
    private readonly modelRow: (id: string) => Promise<Selectable<ModelTable>>,
  ) {}

  async list(): Promise<LoraPairing[]> {
    const rows = await this.store.loraPairings()
    return rows.map((r) => ({
      adapterId: r.adapter_id,
      adapterPath: r.adapter_path,
      adapterName: r.adapter_name,
      baseId: r.base_id,
      basePath: r.base_path,
      baseName: r.base_name,
      scale: r.scale,
      rank: r.rank,
      alpha: r.alpha,
      targets: modelColumns.targets.read(r.targets_json),
      addedAt: r.added_at,
    }))
  }

  /** Registers (or re-registers with a new scale) an adapter against a base; both must be registered models. */
  async register(adapterId: string, baseId: string, scale = 1): Promise<LoraPairing> {
    const adapter = await this.modelRow(adapterId)
    const base = await this.modelRow(baseId)
    if (adapter.role !== 'adapter') throw new ApiError('VALIDATION', `${adapter.name} is registered as a ${adapter.role} model, not a LoRA adapter`)
    if (base.role !== 'policy') throw new ApiError('VALIDATION', `${base.name} is registered as ${base.role === 'adapter' ? 'a LoRA adapter' : `an ${base.role} model`}: a LoRA adapter goes on a policy model`)
    let fit
    try {
      fit = await checkLoraFit(adapter.path, base.path)
    } catch (err) {
      if (err instanceof PolicyError) throw new ApiError('VALIDATION', err.message)
      throw err
    }
    const values = { adapter_id: adapterId, base_id: baseId, scale, rank: fit.rank, alpha: fit.alpha, targets_json: JSON.stringify(fit.targets), added_at: new Date().toISOString() }
    await this.store.putLoraPairing(values)
    return (await this.list()).find((p) => p.adapterId === adapterId && p.baseId === baseId)!
  }

  async unregister(adapterId: string, baseId: string): Promise<void> {
    if (!(await this.store.deleteLoraPairing(adapterId, baseId))) throw new ApiError('NOT_FOUND', `No LoRA pairing of ${adapterId} on ${baseId}`)
  }
}
