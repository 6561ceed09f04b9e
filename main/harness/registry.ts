import type { EnvContext, Environment, EnvironmentFactory } from './types'

const factories = new Map<string, EnvironmentFactory>()

/** Environments register by name; a run names one and gives a config delta over its defaults. */
export function registerEnvironment(factory: EnvironmentFactory<any>): void {
  if (factories.has(factory.name)) throw new Error(`Environment ${factory.name} is already registered`)
  factories.set(factory.name, factory)
}

export function environmentNames(): string[] {
  return [...factories.keys()].sort()
}

export function environmentFactory(name: string): EnvironmentFactory {
  const f = factories.get(name)
  if (!f) throw new Error(`Unknown environment "${name}"; known: ${environmentNames().join(', ') || 'none'}`)
  return f
}

/** Creates an environment from its defaults overridden by `delta` (unknown keys are an error). */
export function createEnvironment(name: string, ctx: EnvContext, delta: Record<string, unknown> = {}): Environment {
  const f = environmentFactory(name)
  for (const key of Object.keys(delta)) {
    if (!Object.hasOwn(f.defaults, key)) throw new Error(`Environment ${name} has no option "${key}"; options: ${Object.keys(f.defaults).join(', ')}`)
  }
  return f.create(ctx, { ...f.defaults, ...delta })
}

export function resolvedConfig(name: string, delta: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...environmentFactory(name).defaults, ...delta }
}

/** What the UI and the validators know of each environment: its declaration without the code. */
export function environmentCatalog() {
  return environmentNames().map((name) => {
    const f = environmentFactory(name)
    return {
      name,
      description: f.description,
      family: f.family,
      actionKind: f.actionKind,
      protocol: f.protocol,
      rewardScheme: f.rewardScheme,
      defaults: { ...f.defaults } as Record<string, unknown>,
      presets: f.presets.map((p) => ({ name: p.name, label: p.label, delta: { ...p.delta } as Record<string, unknown> })),
    }
  })
}
