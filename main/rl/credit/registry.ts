/** Credit schemes by name, built once from their declarations (like the estimator and loss registries). */
import { namedRegistry } from '../named-registry'
import { infoGainDeclaration } from './info-gain'
import { outcomeDeclaration } from './outcome'
import { sncDeclaration } from './snc'
import { sncStopDeclaration } from './snc-stop'
import type { CreditDeclaration, CreditScheme } from './types'

export const creditSchemes = namedRegistry<CreditDeclaration>('credit scheme', [outcomeDeclaration, sncDeclaration, infoGainDeclaration, sncStopDeclaration])

export const creditScheme = (name: string): CreditScheme => creditSchemes.get(name).impl
export const creditNames = (): string[] => creditSchemes.names()
