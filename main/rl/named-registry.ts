/**
 * Plug-ins by name (verl's register_adv_est style), shared by credit schemes, estimators and losses: each
 * is one declaration in one file (name, words, capabilities as data, the code), and a registry is built
 * once from a static list of them, so a run config names its choice and nothing registers at run time.
 * Callers read a capability from the declaration, never test a plug-in's name.
 */
export interface PluginDeclaration<Impl, Capabilities extends object = Record<string, never>> {
  name: string
  label: string
  /** One line for the catalogue and the UI's help. */
  description: string
  capabilities: Capabilities
  impl: Impl
}

export interface NamedRegistry<D extends PluginDeclaration<unknown, object>> {
  /** The declaration; an unknown name lists the known ones. */
  get(name: string): D
  names(): string[]
  declarations(): readonly D[]
}

export function namedRegistry<D extends PluginDeclaration<unknown, object>>(what: string, declarations: readonly D[]): NamedRegistry<D> {
  const map = new Map<string, D>()
  for (const d of declarations) {
    if (map.has(d.name)) throw new Error(`${what} "${d.name}" is declared twice`)
    map.set(d.name, d)
  }
  return {
    get(name) {
      const value = map.get(name)
      if (value === undefined) throw new Error(`unknown ${what} "${name}" (known: ${[...map.keys()].join(', ')})`)
      return value
    },
    names: () => [...map.keys()],
    declarations: () => declarations,
  }
}
