/** Credit schemes by name, like the estimator and loss registries: a run config names its scheme. */
import { infoGain } from './info-gain'
import { outcomeCredit } from './outcome'
import { snc } from './snc'
import type { CreditScheme } from './types'

const schemes = new Map<string, CreditScheme>([
  ['outcome', outcomeCredit],
  ['snc', snc],
  ['info-gain', infoGain],
])

/** Re-registering the same function is a no-op; a different function under a taken name throws. */
export const registerCredit = (name: string, scheme: CreditScheme): void => {
  const existing = schemes.get(name)
  if (existing !== undefined && existing !== scheme) throw new Error(`credit scheme "${name}" is already registered`)
  schemes.set(name, scheme)
}

export const creditScheme = (name: string): CreditScheme => {
  const scheme = schemes.get(name)
  if (scheme === undefined) throw new Error(`unknown credit scheme "${name}" (known: ${creditNames().join(', ')})`)
  return scheme
}

export const creditNames = (): string[] => [...schemes.keys()]
