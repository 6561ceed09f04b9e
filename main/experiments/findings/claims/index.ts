/** The papers' claims a findings run measures, registered by name in claim order. */
import { namedRegistry } from '../../../rl/named-registry'
import { harness1Mechanisms } from './harness1-mechanisms'
import { menuVsFreeQuery } from './menu-vs-free-query'
import { retrievalCollapse } from './retrieval-collapse'
import { sncCredit } from './snc-credit'
import { toolDiversity } from './tool-diversity'
import type { ClaimDeclaration } from './types'

const claims = namedRegistry(
  'claim',
  [retrievalCollapse, menuVsFreeQuery, sncCredit, harness1Mechanisms, toolDiversity].map((c: ClaimDeclaration) => ({ name: c.name, label: c.title, description: c.measure, capabilities: {}, impl: c })),
)

export const claim = (name: string): ClaimDeclaration => claims.get(name).impl
export const claimNames = (): string[] => claims.names()
export const allClaims = (): ClaimDeclaration[] => claimNames().map(claim).sort((a, b) => a.number - b.number)
export type { ClaimDeclaration, ExperimentPlan, MeasureInput, Measured, PlanContext, QuestionRange } from './types'
