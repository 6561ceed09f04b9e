import { environmentCatalog } from '../harness'
import { scriptedPolicies } from '../policy/scripted'
import { PUBLISHED_HARNESS1_WEIGHTS } from '../rl/rewards'
import { metricCatalog } from './metrics'

/**
 * What the Runs page offers: environments as they declare themselves, scripted policies with the
 * protocols they drive, the published Harness-1 weights, and the metric catalogue (every declared
 * metric's label, direction, format and level: main/experiments/metrics).
 */
export function harnessCatalog() {
  return {
    environments: environmentCatalog(),
    scriptedPolicies: scriptedPolicies().map((p) => ({ name: p.name, description: p.description, protocols: [...p.protocols] })),
    rewardWeights: { ...PUBLISHED_HARNESS1_WEIGHTS } as Record<string, unknown>,
    metrics: metricCatalog(),
  }
}
