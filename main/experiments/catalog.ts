import { metricCatalog } from '../eval'
import { environmentCatalog } from '../harness'
import { scriptedPolicies } from '../policy/scripted'
import { HARNESS1_TERMS, PUBLISHED_HARNESS1_WEIGHTS } from '../rl/rewards'

/**
 * What the Runs page offers: environments as they declare themselves, scripted policies with the
 * protocols they drive, the published Harness-1 weights, and the metric catalogue (every stored
 * metric's label, direction and format; every reward term has an entry even if the catalogue lags).
 */
export function harnessCatalog() {
  return {
    environments: environmentCatalog(),
    scriptedPolicies: scriptedPolicies().map((p) => ({ name: p.name, description: p.description, protocols: [...p.protocols] })),
    rewardWeights: { ...PUBLISHED_HARNESS1_WEIGHTS } as Record<string, unknown>,
    metrics: metricCatalog(HARNESS1_TERMS.map((term) => `reward.${term}`)),
  }
}
