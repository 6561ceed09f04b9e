/** Policy-gradient losses by name, returning dLoss/dlogpNew for backprop through the head (README, "Environments, policies and evaluation", Training). */
export {
  cispoLoss,
  ppoClipLoss,
  reinforceLoss,
  type PolicyLoss,
  type PolicyLossInput,
  type PolicyLossOptions,
  type PolicyLossResult,
} from './policy'
export { lossNames, policyLoss, registerLoss } from './registry'
