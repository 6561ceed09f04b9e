import { PROTOCOL_CAPABILITIES, type ActionKind } from '../../preload/contract/protocols'
import type { EnvContext, Environment, EnvironmentFactory } from './types'

/** Environments by name, over a fixed list of declarations; a run names one and gives a config delta over its defaults. */
export interface EnvironmentRegistry {
  names(): string[]
  factory(name: string): EnvironmentFactory
  /** Creates an environment from its defaults overridden by `delta` (unknown keys are an error). */
  create(name: string, ctx: EnvContext, delta?: Record<string, unknown>): Environment
  resolvedConfig(name: string, delta?: Record<string, unknown>): Record<string, unknown>
  /** What the UI and the validators know of each environment: its declaration without the code. */
  catalog(): EnvironmentInfo[]
}

export interface EnvironmentInfo {
  name: string
  description: string
  family: EnvironmentFactory['family']
  /** Its protocol's action kind. */
  actionKind: ActionKind
  protocol: EnvironmentFactory['protocol']
  rewardScheme: EnvironmentFactory['rewardScheme']
  defaults: Record<string, unknown>
  presets: { name: string; label: string; delta: Record<string, unknown> }[]
}

export function environmentRegistry(declarations: readonly EnvironmentFactory<any>[]): EnvironmentRegistry {
  const factories = new Map<string, EnvironmentFactory>()
  for (const f of declarations) {
    if (factories.has(f.name)) throw new Error(`Environment ${f.name} is declared twice`)
    factories.set(f.name, f)
  }
  const names = (): string[] => [...factories.keys()].sort()
  const factory = (name: string): EnvironmentFactory => {
    const f = factories.get(name)
    if (!f) throw new Error(`Unknown environment "${name}"; known: ${names().join(', ') || 'none'}`)
    return f
  }
  return {
    names,
    factory,
    create(name, ctx, delta = {}) {
      const f = factory(name)
      for (const key of Object.keys(delta)) {
        if (!Object.hasOwn(f.defaults, key)) throw new Error(`Environment ${name} has no option "${key}"; options: ${Object.keys(f.defaults).join(', ')}`)
      }
      return f.create(ctx, { ...f.defaults, ...delta })
    },
    resolvedConfig: (name, delta = {}) => ({ ...factory(name).defaults, ...delta }),
    // In the static list's order, not by name: its first environment (graph-menu) is every form's default, for evaluation as for training.
    catalog: () =>
      [...factories.keys()].map((name) => {
        const f = factory(name)
        return {
          name,
          description: f.description,
          family: f.family,
          actionKind: PROTOCOL_CAPABILITIES[f.protocol].actionKind,
          protocol: f.protocol,
          rewardScheme: f.rewardScheme,
          defaults: { ...f.defaults } as Record<string, unknown>,
          presets: f.presets.map((p) => ({ name: p.name, label: p.label, delta: { ...p.delta } as Record<string, unknown> })),
        }
      }),
  }
}
