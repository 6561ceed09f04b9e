/** Policy-gradient losses by name, so a run config selects one and new ones plug in. */
import { cispoLoss, ppoClipLoss, reinforceLoss, type PolicyLoss } from './policy'

const losses = new Map<string, PolicyLoss>([
  ['reinforce', reinforceLoss],
  ['ppo-clip', ppoClipLoss],
  ['cispo', cispoLoss],
])

/** Re-registering the same function is a no-op; a different function under a taken name throws. */
export const registerLoss = (name: string, fn: PolicyLoss): void => {
  const existing = losses.get(name)
  if (existing !== undefined && existing !== fn) throw new Error(`policy loss "${name}" is already registered`)
  losses.set(name, fn)
}

export const policyLoss = (name: string): PolicyLoss => {
  const fn = losses.get(name)
  if (fn === undefined) throw new Error(`unknown policy loss "${name}" (known: ${lossNames().join(', ')})`)
  return fn
}

export const lossNames = (): string[] => [...losses.keys()]
