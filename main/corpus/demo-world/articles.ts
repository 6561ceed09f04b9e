import type { Rng } from './rng'
import type { World } from './world'
import { writeAward, writeOrganisation } from './writers/organisation'
import { writePerson } from './writers/person'
import { writeCity, writeCountry, writeRiver } from './writers/place'
import type { Article, WriterContext } from './writers/shared'
import { writeWork } from './writers/work'

/**
 * Writes one article per entity, grouped by kind in a fixed order. Each kind draws from its own random
 * stream, so a change to how cities are described does not reword every person article.
 */
export function writeArticles(world: World, rng: Rng): Article[] {
  const ctx = (label: string): WriterContext => ({ world, rng: rng.fork(label) })
  const countries = ctx('countries')
  const cities = ctx('cities')
  const rivers = ctx('rivers')
  const orgs = ctx('organisations')
  const people = ctx('people')
  const awards = ctx('awards')
  const works = ctx('works')
  return [
    ...world.countries.map((c) => writeCountry(countries, c)),
    ...world.cities.map((c) => writeCity(cities, c)),
    ...world.rivers.map((r) => writeRiver(rivers, r)),
    ...world.organisations.map((o) => writeOrganisation(orgs, o)),
    ...world.people.map((p) => writePerson(people, p)),
    ...world.awards.map((a) => writeAward(awards, a)),
    ...world.works.map((w) => writeWork(works, w)),
  ]
}
