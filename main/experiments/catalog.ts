import { environmentCatalog, registerBuiltinEnvironments } from '../harness'
import { scriptedPolicies } from '../policy/scripted'
import { PUBLISHED_HARNESS1_WEIGHTS } from '../rl/rewards'

/** Registers every built-in environment once (idempotent). */
export function ensureEnvironments(): void {
  registerBuiltinEnvironments()
}

/** What the Runs page offers: environments as they declare themselves, scripted policies with the protocols they drive. */
export function harnessCatalog() {
  ensureEnvironments()
  return {
    environments: environmentCatalog(),
    scriptedPolicies: scriptedPolicies().map((p) => ({ name: p.name, description: p.description, protocols: [...p.protocols] })),
    rewardWeights: { ...PUBLISHED_HARNESS1_WEIGHTS } as Record<string, unknown>,
  }
}
