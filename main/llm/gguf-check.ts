import { GgmlType } from 'node-llama-cpp'
import { ModelFileError } from './errors'
import { readGgufHeader, type GgufHeader } from './gguf-header'

/** ggml's id of F32, the one tensor type the native trainer has a backward pass for. */
const F32 = 0

export interface GgufCheckOptions {
  /** Also require what training its own weights needs: every tensor F32. */
  forTraining: boolean
}

/**
 * The one check of a GGUF model file, before anything is registered, created or started: the header
 * (magic, version, counts, keys and values within the file), every tensor's type known to ggml and
 * its bytes within the file, and with `forTraining` every tensor in F32. `model add`, `model
 * trainable`, the model registry and the trainer's start give the same named reason, e.g.
 * "truncated at byte N: tensor X needs bytes A..B", "unknown tensor type 999 in tensor X", "tensor X
 * is F16: training needs F32". Throws a ModelFileError (an Error) with that reason; returns the header.
 */
export async function checkGgufFile(path: string, options: GgufCheckOptions): Promise<GgufHeader> {
  const header = await readGgufHeader(path)
  if (options.forTraining) {
    if (header.tensors.length === 0) throw new ModelFileError('not-a-model', `no tensors in ${path}: nothing to train`, { path })
    const other = header.tensors.find((t) => t.ggmlType !== F32)
    if (other) {
      const type = GgmlType[other.ggmlType] ?? `type ${other.ggmlType}`
      throw new ModelFileError(
        'not-f32',
        `tensor ${other.name} is ${type}: training needs F32 (every weight: quantised and F16 weights have no backward pass here); convert the original model to an F32 GGUF (e.g. convert_hf_to_gguf.py --outtype f32)`,
        { path },
      )
    }
  }
  return header
}
