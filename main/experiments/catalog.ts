import { environmentFactory, environmentNames } from '../harness/registry'

/** Registers every built-in environment once (idempotent). */
export function ensureEnvironments(): void {}

export function scriptedPolicyNames(): string[] {
  return []
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
  }
}
