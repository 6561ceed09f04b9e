/** Credit schemes by name, like the estimator and loss registries: a run config names its scheme. */
import { namedRegistry } from '../named-registry'
import { infoGain } from './info-gain'
import { outcomeCredit } from './outcome'
import { snc } from './snc'
import type { CreditScheme } from './types'

const schemes = namedRegistry<CreditScheme>('credit scheme', [
  ['outcome', outcomeCredit],
  ['snc', snc],
  ['info-gain', infoGain],
])

export const registerCredit = (name: string, scheme: CreditScheme): void => schemes.register(name, scheme)
export const creditScheme = (name: string): CreditScheme => schemes.get(name)
export const creditNames = (): string[] => schemes.names()
