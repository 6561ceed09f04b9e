/** npm run build:gguf-trainer [-- cpu|cuda|vulkan]: builds (or rebuilds) the native GGUF trainer. */
import { ensureTrainerBinary, type TrainerBackend } from '../main/llm/training'

const backend = (process.argv[2] ?? 'cpu') as TrainerBackend
try {
  const bin = await ensureTrainerBinary({ backend, force: true, log: (l) => console.log(l) })
  console.log(`gguf-trainer (${bin.backend}, llama.cpp ${bin.llamaCppRelease}): ${bin.path}`)
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err))
  process.exit(1)
}
