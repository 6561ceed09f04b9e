/**
 * Does a GGUF LoRA adapter fit a base model? Checked from the two files' headers (main/llm/gguf-header.ts)
 * without loading either: same architecture, every `<name>.lora_a` / `.lora_b` pair targets a tensor the base
 * has, with lora_a = [input, rank] and lora_b = [rank, output] in ggml order against the base's [input, output].
 * llama.cpp refuses a mismatch only when a context is created, with a terse message; this says which tensor.
 */
import { PolicyError } from './errors'
import { readGgufHeader, type GgufHeader } from './gguf-header'

export interface LoraFit {
  architecture: string | null
  rank: number
  alpha: number | null
  /** Base tensors the adapter changes. */
  targets: string[]
}

const isAdapter = (h: GgufHeader): boolean => h.metadata.get('general.type') === 'adapter' || h.tensors.some((t) => t.name.endsWith('.lora_a'))

/** The fit, or a PolicyError ('invalid-input', or 'not-a-model' for a base that is itself an adapter) naming what does not fit. */
export async function checkLoraFit(adapterPath: string, basePath: string): Promise<LoraFit> {
  const [adapter, base] = await Promise.all([readGgufHeader(adapterPath), readGgufHeader(basePath)])
  if (!isAdapter(adapter)) throw new PolicyError('invalid-input', `${adapterPath} is not a LoRA adapter (no general.type = adapter and no .lora_a tensors)`, { path: adapterPath })
  if (isAdapter(base)) throw new PolicyError('not-a-model', `${basePath} is a LoRA adapter, not a base model`, { path: basePath })
  const mismatch = (what: string) => new PolicyError('invalid-input', `LoRA adapter ${adapterPath} does not fit base model ${basePath}: ${what}`, { path: adapterPath })
  const archA = adapter.metadata.get('general.architecture')
  const archB = base.metadata.get('general.architecture')
  if (typeof archA === 'string' && typeof archB === 'string' && archA !== archB) throw mismatch(`the adapter is for architecture "${archA}", the base is "${archB}"`)
  const baseDims = new Map(base.tensors.map((t) => [t.name, t.dims]))
  const pairs = new Map<string, { a?: number[]; b?: number[] }>()
  for (const t of adapter.tensors) {
    const m = /^(.*)\.lora_([ab])$/.exec(t.name)
    if (!m) continue
    const entry = pairs.get(m[1]!) ?? {}
    entry[m[2] as 'a' | 'b'] = t.dims
    pairs.set(m[1]!, entry)
  }
  if (pairs.size === 0) throw mismatch('the adapter has no .lora_a / .lora_b tensors')
  const problems: string[] = []
  let rank: number | null = null
  for (const [name, { a, b }] of pairs) {
    const target = baseDims.get(name)
    if (!a || !b) problems.push(`${name} has only lora_${a ? 'a' : 'b'}`)
    else if (!target) problems.push(`the base has no tensor ${name}`)
    else if (a.length !== 2 || b.length !== 2 || target.length !== 2) problems.push(`${name} is not a matrix on both sides`)
    else {
      const [input, output] = target as [number, number]
      if (a[0] !== input || b[1] !== output || a[1] !== b[0]) {
        problems.push(`${name}: base is [${input}, ${output}], adapter lora_a [${a.join(', ')}] × lora_b [${b.join(', ')}] (needs [${input}, r] × [r, ${output}])`)
      } else if (rank !== null && a[1] !== rank) problems.push(`${name} has rank ${a[1]}, other tensors rank ${rank}`)
      else rank = a[1]!
    }
    if (problems.length >= 3) break
  }
  if (problems.length > 0) throw mismatch(problems.join('; '))
  const alpha = adapter.metadata.get('adapter.lora.alpha')
  return { architecture: typeof archA === 'string' ? archA : null, rank: rank!, alpha: typeof alpha === 'number' ? alpha : null, targets: [...pairs.keys()].sort() }
}
