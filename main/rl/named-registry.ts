/**
 * A registry by name (verl's register_adv_est style), shared by credit schemes, estimators and losses:
 * a run config names its choice, new entries plug in without touching the trainer. Re-registering the
 * same value is a no-op; a different value under a taken name throws; an unknown name lists the known ones.
 */
export interface NamedRegistry<T> {
  register(name: string, value: T): void
  get(name: string): T
  names(): string[]
}

export function namedRegistry<T>(what: string, entries: readonly (readonly [string, T])[]): NamedRegistry<T> {
  const map = new Map<string, T>(entries)
  return {
    register(name, value) {
      const existing = map.get(name)
      if (existing !== undefined && existing !== value) throw new Error(`${what} "${name}" is already registered`)
      map.set(name, value)
    },
    get(name) {
      const value = map.get(name)
      if (value === undefined) throw new Error(`unknown ${what} "${name}" (known: ${[...map.keys()].join(', ')})`)
      return value
    },
    names: () => [...map.keys()],
  }
}
