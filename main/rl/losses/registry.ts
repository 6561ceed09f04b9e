/** Policy-gradient losses by name, built once from their declarations, so a run config selects one. */
import { namedRegistry } from '../named-registry'
import { cispoDeclaration } from './cispo'
import type { LossConfig, LossDeclaration, PolicyLoss } from './policy'
import { ppoClipDeclaration } from './ppo-clip'
import { reinforceDeclaration } from './reinforce'

export const losses = namedRegistry<LossDeclaration>('policy loss', [reinforceDeclaration, ppoClipDeclaration, cispoDeclaration])

export const policyLoss = (name: string): PolicyLoss => losses.get(name).impl
export const lossNames = (): string[] => losses.names()

/** Checks the options the config's loss reads against its declared bounds; throws the first problem. */
export function checkLossConfig(config: LossConfig): void {
  const loss = losses.get(config.name)
  for (const p of loss.params) {
    const parsed = p.schema.safeParse(config[p.key])
    if (!parsed.success) throw new Error(`${parsed.error.issues[0]?.message ?? `${p.label} is out of bounds`}, got ${config[p.key]}`)
  }
  loss.check?.(config)
}
