/** Policy-gradient losses by name, returning dLoss/dlogpNew for backprop through the head (README, "Environments, policies and evaluation", Training). */
export { cispoDeclaration, cispoLoss } from './cispo'
export {
  type LossCapabilities,
  type LossConfig,
  type LossDeclaration,
  type LossParamDeclaration,
  type PolicyLoss,
  type PolicyLossInput,
  type PolicyLossOptions,
  type PolicyLossResult,
} from './policy'
export { ppoClipDeclaration, ppoClipLoss } from './ppo-clip'
export { reinforceDeclaration, reinforceLoss } from './reinforce'
export { checkLossConfig, lossNames, losses, policyLoss } from './registry'
