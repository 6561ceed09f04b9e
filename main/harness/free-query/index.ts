import { checkConfig } from '../sentence-substrate/config'
import { describeSentenceStep } from '../sentence-substrate/describe-step'
import type { EnvironmentFactory } from '../types'
import { FREE_QUERY_BOUNDS, FREE_QUERY_DEFAULTS, type FreeQueryConfig } from './config'
import { FreeQueryEnvironment } from './environment'

export { FreeQueryEnvironment } from './environment'
export { FREE_QUERY_DEFAULTS, type FreeQueryConfig } from './config'
export { capQuery, freeQueryTools, parseToolText, toolCallForMenuId } from './tools'

export const FREE_QUERY = 'free-query'

export const freeQueryFactory: EnvironmentFactory<FreeQueryConfig> = {
  name: FREE_QUERY,
  description:
    'Free-query baseline (Search-R1 style) over the Harness-G substrate: the policy writes search queries; SELECT, ANSWER_WITH and ANSWER as in the menu environment, with the same budgets.',
  family: 'harness-g',
  protocol: 'sentence-search',
  rewardScheme: null,
  presets: [{ name: 'free-query', label: 'Free query (defaults)', delta: {} }],
  defaults: FREE_QUERY_DEFAULTS,
  describeStep: describeSentenceStep,
  create(ctx, config) {
    checkConfig(FREE_QUERY, config, FREE_QUERY_BOUNDS)
    return new FreeQueryEnvironment(ctx, { ...FREE_QUERY_DEFAULTS, ...config })
  },
}
