import type { GgufTrainerStatus, ModelInfo } from '../../../../preload/contract'

/** Registered policy models whose own weights can train: llama.cpp's training API trains F32 tensors only. */
export const trainableModels = (models: ModelInfo[]): ModelInfo[] => models.filter((m) => m.role === 'policy' && m.quantization === 'F32')

/** Why GGUF weights cannot train here right now (the native trainer, then the registered models), or null when they can. */
export function ggufTrainingBlocker(models: ModelInfo[], trainer: GgufTrainerStatus | null): string | null {
  if (trainer === null) return 'Checking the native GGUF trainer (the first check builds it with the system C++ compiler)…'
  if (!trainer.available) return `GGUF weights cannot train here: ${trainer.reason ?? 'the native trainer is unavailable'}`
  if (trainableModels(models).length > 0) return null
  const policies = models.filter((m) => m.role === 'policy')
  if (policies.length === 0) return 'No policy model is registered: add an F32 GGUF model on the Models page (llama.cpp trains F32 weights only).'
  return `No registered policy model is F32 (${policies.map((m) => `${m.name}: ${m.quantization ?? 'unknown type'}`).join(', ')}): llama.cpp trains F32 weights only; add an F32 GGUF model on the Models page.`
}
