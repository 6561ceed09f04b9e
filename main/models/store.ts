/** The model catalogue in app.db: registered GGUF files (models) and LoRA pairings (lora_adapters). */
import type { Insertable, Kysely, Selectable } from 'kysely'
import { z } from 'zod'
import { ModelInfo } from '../../preload/contract'
import { jsonColumn, StringList } from '../db/json-column'
import type { AppDatabase, LoraAdapterTable, ModelTable } from '../db/schema'

export type ModelRow = Selectable<ModelTable>

/**
 * models.info_json: the file's header facts as checkGgufFile read them when the model was added (ModelFileInfo),
 * with the provenance of weights trained here. Loose: the registry reads the fields the Models page shows.
 */
export const modelColumns = {
  info: jsonColumn(
    'models.info_json',
    z.looseObject({
      ...ModelInfo.pick({ architecture: true, parameterCount: true, quantization: true, contextLength: true, embeddingLength: true, layers: true, hasChatTemplate: true, sizeBytes: true }).shape,
      provenance: ModelInfo.shape.provenance.optional(),
    }),
  ),
  targets: jsonColumn('lora_adapters.targets_json', StringList),
}

export class ModelStore {
  constructor(private readonly db: Kysely<AppDatabase>) {}

  model(id: string): Promise<ModelRow | undefined> {
    return this.db.selectFrom('models').selectAll().where('id', '=', id).executeTakeFirst()
  }

  /** Oldest first. */
  models(): Promise<ModelRow[]> {
    return this.db.selectFrom('models').selectAll().orderBy('added_at').execute()
  }

  /** Registers a file, or refreshes the hash, role and header of one registered at the same path. */
  async putModel(row: Insertable<ModelTable>): Promise<void> {
    await this.db
      .insertInto('models')
      .values(row)
      .onConflict((oc) => oc.column('path').doUpdateSet({ sha256: row.sha256, role: row.role, info_json: row.info_json }))
      .execute()
  }

  async deleteModel(id: string): Promise<void> {
    await this.db.deleteFrom('models').where('id', '=', id).execute()
  }

  /** LoRA pairings with both models' paths and names, oldest first. */
  loraPairings() {
    return this.db
      .selectFrom('lora_adapters as l')
      .innerJoin('models as a', 'a.id', 'l.adapter_id')
      .innerJoin('models as b', 'b.id', 'l.base_id')
      .select(['l.adapter_id', 'l.base_id', 'l.scale', 'l.rank', 'l.alpha', 'l.targets_json', 'l.added_at', 'a.path as adapter_path', 'a.name as adapter_name', 'b.path as base_path', 'b.name as base_name'])
      .orderBy('l.added_at')
      .execute()
  }

  /** Registers a pairing, or updates the scale and fit of an existing one. */
  async putLoraPairing(row: Selectable<LoraAdapterTable>): Promise<void> {
    await this.db
      .insertInto('lora_adapters')
      .values(row)
      .onConflict((oc) => oc.columns(['adapter_id', 'base_id']).doUpdateSet({ scale: row.scale, rank: row.rank, alpha: row.alpha, targets_json: row.targets_json }))
      .execute()
  }

  /** Whether the pairing was there. */
  async deleteLoraPairing(adapterId: string, baseId: string): Promise<boolean> {
    const done = await this.db.deleteFrom('lora_adapters').where('adapter_id', '=', adapterId).where('base_id', '=', baseId).executeTakeFirst()
    return Number(done.numDeletedRows) > 0
  }
}
