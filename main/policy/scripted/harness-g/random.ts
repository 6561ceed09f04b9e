import { seededRandom } from '../../../eval'
import type { Policy, PolicyDecision, Protocol } from '../../../harness'
import type { ActionSpace, Observation } from '../../../harness'
import { answerDecision, entityQuery, searchKey, sentenceData, usedQueryKeys, queryToolOf } from './observation'

/** Policy draws are their own stream: the same episode seed must not echo other seeded components. */
const STREAM = 0x52414e44

/**
 * Uniform over what is available: every menu item (graph menu), or every SELECT / ANSWER_WITH /
 * ANSWER item plus one search per unsearched entity name and the question (free query). Seeded by
 * the episode seed, so the same seed gives the same episode.
 */
export class RandomPolicy implements Policy {
  readonly name = 'random'
  private random: () => number = seededRandom(STREAM)

  constructor(private readonly protocol: Protocol) {}

  reset(episode: { seed: number }): void {
    // High bits folded in, so seeds 2**32 apart still differ.
    this.random = seededRandom((episode.seed ^ Math.floor(episode.seed / 4294967296) ^ STREAM) >>> 0)
  }

  async act(observation: Observation, _actions: ActionSpace): Promise<PolicyDecision> {
    const data = sentenceData(observation, this.name)
    const choices: PolicyDecision[] = data.menu.map((item) => ({ action: { kind: 'menu', id: item.id } }))
    const queryTool = queryToolOf(this.protocol)
    if (queryTool !== null) {
      const used = usedQueryKeys(data)
      for (const query of [data.question, ...data.entities.map((e) => entityQuery(data, e.name))]) {
        const key = searchKey(data, query)
        if (used.has(key)) continue
        used.add(key)
        choices.push({ action: { kind: 'tool', name: queryTool, arguments: { query } } })
      }
    }
    const pick = choices[Math.floor(this.random() * choices.length)]
    return pick ? { ...pick, logprob: -Math.log(choices.length) } : answerDecision(this.protocol)
  }
}
