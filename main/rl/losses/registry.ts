/** Policy-gradient losses by name, so a run config selects one and new ones plug in. */
import { namedRegistry } from '../named-registry'
import { cispoLoss, ppoClipLoss, reinforceLoss, type PolicyLoss } from './policy'

const losses = namedRegistry<PolicyLoss>('policy loss', [
  ['reinforce', reinforceLoss],
  ['ppo-clip', ppoClipLoss],
  ['cispo', cispoLoss],
])

export const registerLoss = (name: string, fn: PolicyLoss): void => losses.register(name, fn)
export const policyLoss = (name: string): PolicyLoss => losses.get(name)
export const lossNames = (): string[] => losses.names()
