import type { Rng } from '../rng'
import type { Draft } from '../text'
import type { Person, World } from '../world'

export type EntityKind = 'country' | 'city' | 'river' | 'organisation' | 'person' | 'award' | 'work'

/** One encyclopedia article: the entity it describes and the tagged sentences about it. */
export interface Article {
  entityId: string
  kind: EntityKind
  title: string
  draft: Draft
}

export interface WriterContext {
  world: World
  rng: Rng
}

/**
 * How another article names a person: the full name, now and then with the honorific (written without a
 * period, so sentence splitting stays unambiguous). The full name is always there, which is what the
 * supporting-fact checks and entity linking look for.
 */
export function personRef(ctx: WriterContext, p: Person): string {
  return p.honorific && ctx.rng.chance(0.35) ? `${p.honorific} ${p.name}` : p.name
}

/** Names of up to `max` people, in world order, for "Notable people include ..." sentences. */
export function someNames<T>(ctx: WriterContext, items: readonly T[], max: number, name: (x: T) => string): string[] {
  return ctx.rng.sample(items, max).map(name)
}

/** Draws a few distinct years in [from, to], ascending: the skeleton of a history paragraph. */
export function someYears(rng: Rng, from: number, to: number, count: number): number[] {
  if (to < from) return []
  const years = new Set<number>()
  for (let i = 0; i < count * 3 && years.size < count; i++) years.add(rng.int(from, to))
  return [...years].sort((a, b) => a - b)
}

/** Fills `{key}` slots in a template. */
export const fill = (template: string, values: Record<string, string | number>): string =>
  template.replace(/\{(\w+)\}/g, (_, k: string) => String(values[k] ?? ''))
