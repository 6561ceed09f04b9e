/**
 * What a training step plays, derived from the run seed and the step number alone: its questions
 * (consecutive slices of a per-epoch shuffle of the train split) and every rollout's seed. A resumed run
 * therefore plays exactly what the uninterrupted run would.
 */
import { seededRandom } from '../../eval'
import type { TrainConfig } from '../../rl/trainer'
import type { StoredQuestion } from '../questions'

export function stepQuestions(train: StoredQuestion[], config: Pick<TrainConfig, 'questionsPerStep' | 'seed'>, step: number): StoredQuestion[] {
  const out: StoredQuestion[] = []
  const orders = new Map<number, number[]>()
  for (let j = 0; j < config.questionsPerStep; j++) {
    const i = step * config.questionsPerStep + j
    const epoch = Math.floor(i / train.length)
    let order = orders.get(epoch)
    if (!order) {
      const random = seededRandom((config.seed * 7919 + epoch * 104_729) >>> 0)
      order = train.map((_, k) => k)
      for (let k = order.length - 1; k > 0; k--) {
        const r = Math.floor(random() * (k + 1))
        ;[order[k], order[r]] = [order[r]!, order[k]!]
      }
      orders.set(epoch, order)
    }
    out.push(train[order[i % train.length]!]!)
  }
  return out
}

export const rolloutSeed = (config: Pick<TrainConfig, 'seed'>, step: number, j: number, g: number): number => (((config.seed * 1_000_003) ^ (step * 92_821 + j * 613 + g * 7)) >>> 0)
