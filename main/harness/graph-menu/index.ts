/**
 * Harness-G menu environment ("graph-menu") over the sentence substrate it shares with the free-query baseline.
 *
 * Menu ids, stable within an episode: S<n> SELECT sentence #n, L<m> LOOKUP entity #m, W<n>
 * ANSWER_WITH sentence #n, A ANSWER. Sentences are numbered in the order they become visible and
 * entities in the order they become known, so an id from an earlier menu that is no longer offered
 * (a committed sentence, a visited entity) is rejected as a format error.
 *
 * Observation.data is a SentenceEnvData; snapshot() a SentenceEnvSnapshot; preview() of an item
 * gives the sentence ids it would commit (S, W) or make visible (L). Config: GraphMenuConfig.
 */
import type { EnvironmentFactory } from '../types'
import { checkConfig } from '../sentence-substrate/config'
import { describeSentenceStep } from '../sentence-substrate/describe-step'
import { GRAPH_MENU_BOUNDS, GRAPH_MENU_DEFAULTS, type GraphMenuConfig } from './config'
import { GraphMenuEnvironment } from './environment'

export { GraphMenuEnvironment } from './environment'
export { GRAPH_MENU_DEFAULTS, type GraphMenuConfig } from './config'
export { lookupQuery } from './lookup-items'

export const GRAPH_MENU = 'graph-menu'

export const graphMenuFactory: EnvironmentFactory<GraphMenuConfig> = {
  name: GRAPH_MENU,
  description:
    'Harness-G menu environment: SELECT a visible sentence, LOOKUP an entity (the environment writes the query), ANSWER_WITH a sentence, or ANSWER; bounded menus with previews.',
  family: 'harness-g',
  protocol: 'sentence-menu',
  rewardScheme: null,
  presets: [
    { name: 'menu', label: 'Menu (defaults)', delta: {} },
    { name: 'corpus-scope', label: 'LOOKUP over the whole corpus', delta: { lookupScope: 'corpus' } },
    { name: 'no-linked-entities', label: 'w/o entity-neighbour LOOKUPs', delta: { linkedEntities: false } },
  ],
  defaults: GRAPH_MENU_DEFAULTS,
  describeStep: describeSentenceStep,
  create(ctx, config) {
    checkConfig(GRAPH_MENU, config, GRAPH_MENU_BOUNDS)
    return new GraphMenuEnvironment(ctx, { ...GRAPH_MENU_DEFAULTS, ...config })
  },
}
