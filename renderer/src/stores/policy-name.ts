import { trainedPolicyLabel } from '../../../preload/contract'

const text = (v: unknown): string => (typeof v === 'string' ? v : '')
const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined)

/**
 * A run's policy as its record names it: the scripted policy's name, a trained policy by its run and
 * step ("head · training run 3 · step 20", "GGUF · training run 4 · step 1"), a head file, or the GGUF
 * model's file (a trained file names the run that trained it).
 */
export function storedPolicyName(policy: { kind: string; name?: string; [field: string]: unknown }): string {
  const run = int(policy['trainingRun'])
  if (policy.kind === 'scripted') return text(policy.name)
  if (policy.kind === 'head' && run !== undefined) return trainedPolicyLabel('head', run, int(policy['step']))
  if (policy.kind === 'gguf-run' && run !== undefined) return trainedPolicyLabel('gguf', run, int(policy['step']))
  if (policy.kind === 'llm' && run !== undefined) return trainedPolicyLabel('gguf', run, int(policy['step']))
  if (policy.kind === 'head-file') return `head ${text(policy['path']).split('/').pop()}`
  if (policy.kind === 'head') return `head ${text(policy['stage'])}`.trim()
  return text(policy['modelPath']).split('/').pop() || text(policy.name) || policy.kind
}
