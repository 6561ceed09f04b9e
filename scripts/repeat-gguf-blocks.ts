/**
 * npx tsx scripts/repeat-gguf-blocks.ts <model.gguf> <out.gguf> <layers>: a copy of a GGUF model with its
 * blocks repeated to <layers> (block i copies block i mod n), e.g. stories260K at the depth of the models
 * researchers train (16-32 layers), to check what depth does to training and speed.
 */
import { repeatBlocks } from '../bench/support/gguf'

const [source, target, layers] = process.argv.slice(2)
if (!source || !target || !layers) {
  console.error('usage: npx tsx scripts/repeat-gguf-blocks.ts <model.gguf> <out.gguf> <layers>')
  process.exit(2)
}
try {
  const r = repeatBlocks(source, target, Number(layers))
  console.log(`${r.file}: ${r.layers} layers (from ${r.sourceLayers}), ${r.tensors} tensors, ${(r.bytes / 2 ** 20).toFixed(1)} MiB`)
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err))
  process.exit(1)
}
