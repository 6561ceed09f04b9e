import { registerBuiltinEnvironments } from '../harness/builtin'
import { environmentFactory, environmentNames } from '../harness/registry'
import { SCRIPTED_POLICY_NAMES } from '../harness/scripted'
import { HARNESS1_ABLATIONS, registerStatefulEnvironments } from '../harness/stateful'
import { PUBLISHED_HARNESS1_WEIGHTS } from '../rl/rewards'

/** Registers every built-in environment once (idempotent). */
export function ensureEnvironments(): void {
  registerBuiltinEnvironments()
  registerStatefulEnvironments()
}

/** Scripted policies: greedy/random/oracle drive the Harness-G environments, scripted-tools drives Harness-1. */
export function scriptedPolicyNames(): string[] {
  return [...SCRIPTED_POLICY_NAMES, 'scripted-tools']
}

/** What the Runs page offers: environments with their default configs, and scripted policies. */
export function harnessCatalog() {
  ensureEnvironments()
  return {
    environments: environmentNames().map((name) => {
      const f = environmentFactory(name)
      return { name, description: f.description, defaults: f.defaults }
    }),
    scriptedPolicies: scriptedPolicyNames(),
    rewardWeights: { ...PUBLISHED_HARNESS1_WEIGHTS } as Record<string, unknown>,
    ablations: HARNESS1_ABLATIONS.map((a) => ({ environment: 'stateful', name: a.name, label: a.label, delta: { ...a.delta } as Record<string, unknown> })),
  }
}
