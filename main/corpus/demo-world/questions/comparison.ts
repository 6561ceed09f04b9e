import { OCCUPATIONS } from '../domains'
import type { Rng } from '../rng'
import { formatCount } from '../text'
import { industryOf, type World } from '../world'
import { personAnswers, pickWhere, type Template } from './shared'

/**
 * Comparison questions: two entities of one kind, one fact from each article. Either the answer is one
 * of the two names (which was founded first), or it is yes/no (are both from the same country). Values
 * compared must differ clearly, so that every question has exactly one right answer.
 */

function groupBy<T>(items: readonly T[], key: (x: T) => string): T[][] {
  const groups = new Map<string, T[]>()
  for (const x of items) {
    const k = key(x)
    const g = groups.get(k)
    if (g) g.push(x)
    else groups.set(k, [x])
  }
  return [...groups.values()]
}

/** Two distinct items; null when there are fewer than two. */
function pair<T>(rng: Rng, items: readonly T[]): [T, T] | null {
  if (items.length < 2) return null
  const [a, b] = rng.sample(items, 2)
  return a === undefined || b === undefined ? null : [a, b]
}

/**
 * A yes/no pair: for "yes" two members of one group, for "no" members of two different groups. The
 * answer is decided first, so yes and no come out in about equal numbers whatever the group sizes.
 */
function yesNoPair<T>(rng: Rng, groups: readonly T[][], key: (x: T) => string): { a: T; b: T; yes: boolean } | null {
  const yes = rng.chance(0.5)
  if (yes) {
    const big = groups.filter((g) => g.length >= 2)
    if (big.length === 0) return null
    const p = pair(rng, rng.pick(big))
    return p ? { a: p[0], b: p[1], yes } : null
  }
  if (groups.length < 2) return null
  const [g1, g2] = rng.sample(groups, 2)
  if (!g1 || !g2) return null
  const a = rng.pick(g1)
  const b = rng.pick(g2)
  return key(a) === key(b) ? null : { a, b, yes }
}

const order = (x: number, y: number): boolean => x < y

export function comparisonTemplates(world: World): (readonly [Template, number])[] {
  const peopleByCountry = groupBy(world.people, (p) => p.countryId)
  const peopleByJob = groupBy(world.people, (p) => OCCUPATIONS[p.occupation].title)
  const orgsByKind = groupBy(world.organisations, (o) => o.industry)
  const commercialByKind = groupBy(
    world.organisations.filter((o) => industryOf(o.industry).commercial),
    (o) => o.industry,
  )
  const citiesByCountry = groupBy(world.cities, (c) => c.countryId)
  const peopleIn = new Map(peopleByCountry.map((g) => [(g[0] as (typeof g)[number]).countryId, g] as const))
  const yesNo = (yes: boolean): string[] => [yes ? 'yes' : 'no']

  const foundedFirst: Template = ({ rng }) => {
    const p = pair(rng, world.organisations)
    if (!p || p[0].founded.year === p[1].founded.year) return null
    const [a, b] = p
    const first = order(a.founded.year, b.founded.year) ? a : b
    return {
      template: 'founded-first',
      type: 'comparison',
      question: rng.pick(['Which was founded first, {a} or {b}?', 'Which organisation is older, {a} or {b}?']).replace('{a}', a.name).replace('{b}', b.name),
      answers: [first.name],
      support: [
        { entityId: a.id, fact: 'founded', mentions: String(a.founded.year) },
        { entityId: b.id, fact: 'founded', mentions: String(b.founded.year) },
      ],
      about: [a.id, b.id],
    }
  }

  const bornFirst: Template = ({ rng }) => {
    const p = pair(rng, world.people)
    if (!p || p[0].birth.year === p[1].birth.year) return null
    const [a, b] = p
    const first = order(a.birth.year, b.birth.year) ? a : b
    return {
      template: 'born-first',
      type: 'comparison',
      question: rng.pick(['Who was born first, {a} or {b}?', 'Who was born earlier, {a} or {b}?']).replace('{a}', a.name).replace('{b}', b.name),
      answers: personAnswers(first),
      support: [
        { entityId: a.id, fact: 'birthDate', mentions: String(a.birth.year) },
        { entityId: b.id, fact: 'birthDate', mentions: String(b.birth.year) },
      ],
      about: [a.id, b.id],
    }
  }

  const largerCity: Template = ({ rng }) => {
    const p = pair(rng, world.cities)
    if (!p) return null
    const [a, b] = p
    // A tenth apart at least: close populations make a question that rounding could flip.
    if (Math.max(a.population, b.population) < 1.1 * Math.min(a.population, b.population)) return null
    const larger = a.population > b.population ? a : b
    return {
      template: 'larger-city',
      type: 'comparison',
      question: rng
        .pick(['Which city has the larger population, {a} or {b}?', 'Which has more inhabitants, {a} or {b}?'])
        .replace('{a}', a.name)
        .replace('{b}', b.name),
      answers: [larger.name],
      support: [
        { entityId: a.id, fact: 'population', mentions: formatCount(a.population) },
        { entityId: b.id, fact: 'population', mentions: formatCount(b.population) },
      ],
      about: [a.id, b.id],
    }
  }

  const olderCity: Template = ({ rng }) => {
    const p = pair(rng, world.cities)
    if (!p || p[0].founded === p[1].founded) return null
    const [a, b] = p
    const first = order(a.founded, b.founded) ? a : b
    return {
      template: 'older-city',
      type: 'comparison',
      question: rng.pick(['Which city was founded earlier, {a} or {b}?', 'Which is the older city, {a} or {b}?']).replace('{a}', a.name).replace('{b}', b.name),
      answers: [first.name],
      support: [
        { entityId: a.id, fact: 'founded', mentions: String(a.founded) },
        { entityId: b.id, fact: 'founded', mentions: String(b.founded) },
      ],
      about: [a.id, b.id],
    }
  }

  const earlierWork: Template = ({ rng }) => {
    const p = pair(rng, world.works)
    if (!p || p[0].year === p[1].year) return null
    const [a, b] = p
    const first = order(a.year, b.year) ? a : b
    return {
      template: 'earlier-work',
      type: 'comparison',
      question: rng.pick(['Which came out first, {a} or {b}?', 'Which is older, {a} or {b}?']).replace('{a}', a.title).replace('{b}', b.title),
      answers: [first.title],
      support: [
        { entityId: a.id, fact: 'year', mentions: String(a.year) },
        { entityId: b.id, fact: 'year', mentions: String(b.year) },
      ],
      about: [a.id, b.id],
    }
  }

  const longerRiver: Template = ({ rng }) => {
    const p = pair(rng, world.rivers)
    if (!p) return null
    const [a, b] = p
    if (Math.max(a.lengthKm, b.lengthKm) < 1.1 * Math.min(a.lengthKm, b.lengthKm)) return null
    const longer = a.lengthKm > b.lengthKm ? a : b
    return {
      template: 'longer-river',
      type: 'comparison',
      question: `Which river is longer, the ${a.name} or the ${b.name}?`,
      answers: [longer.name, longer.short],
      support: [
        { entityId: a.id, fact: 'length', mentions: formatCount(a.lengthKm) },
        { entityId: b.id, fact: 'length', mentions: formatCount(b.lengthKm) },
      ],
      about: [a.id, b.id],
    }
  }

  const bothFromCountry: Template = ({ rng }) => {
    const country = world.country(rng.pick(world.people).countryId)
    const from = peopleIn.get(country.id) ?? []
    const yes = rng.chance(0.5)
    let a = rng.pick(from)
    let b = yes ? pickWhere(rng, from, (p) => p !== a) : pickWhere(rng, world.people, (p) => p.countryId !== country.id)
    if (!b) return null
    if (rng.chance(0.5)) [a, b] = [b, a]
    return {
      template: 'both-from-country',
      type: 'comparison',
      question: `Are ${a.name} and ${b.name} both from ${country.name}?`,
      answers: yesNo(yes),
      support: [
        { entityId: a.id, fact: 'nationality', mentions: world.country(a.countryId).demonym },
        { entityId: b.id, fact: 'nationality', mentions: world.country(b.countryId).demonym },
      ],
      about: [a.id, b.id, country.id],
    }
  }

  const sameNationality: Template = ({ rng }) => {
    const p = yesNoPair(rng, peopleByCountry, (x) => x.countryId)
    if (!p) return null
    return {
      template: 'same-nationality',
      type: 'comparison',
      question: rng.pick(['Are {a} and {b} of the same nationality?', 'Do {a} and {b} share a nationality?']).replace('{a}', p.a.name).replace('{b}', p.b.name),
      answers: yesNo(p.yes),
      support: [
        { entityId: p.a.id, fact: 'nationality', mentions: world.country(p.a.countryId).demonym },
        { entityId: p.b.id, fact: 'nationality', mentions: world.country(p.b.countryId).demonym },
      ],
      about: [p.a.id, p.b.id],
    }
  }

  const sameProfession: Template = ({ rng }) => {
    const p = yesNoPair(rng, peopleByJob, (x) => OCCUPATIONS[x.occupation].title)
    if (!p) return null
    return {
      template: 'same-profession',
      type: 'comparison',
      question: `Did ${p.a.name} and ${p.b.name} have the same profession?`,
      answers: yesNo(p.yes),
      support: [
        { entityId: p.a.id, fact: 'occupation', mentions: OCCUPATIONS[p.a.occupation].title },
        { entityId: p.b.id, fact: 'occupation', mentions: OCCUPATIONS[p.b.occupation].title },
      ],
      about: [p.a.id, p.b.id],
    }
  }

  const sameKind: Template = ({ rng }) => {
    // "Industry" only where it is the natural word; otherwise ask about the kind of organisation.
    const commercial = rng.chance(0.6)
    const p = yesNoPair(rng, commercial ? commercialByKind : orgsByKind, (x) => x.industry)
    if (!p) return null
    const question = commercial ? 'Do {a} and {b} operate in the same industry?' : 'Are {a} and {b} the same kind of organisation?'
    return {
      template: 'same-kind-of-organisation',
      type: 'comparison',
      question: question.replace('{a}', p.a.name).replace('{b}', p.b.name),
      answers: yesNo(p.yes),
      support: [
        { entityId: p.a.id, fact: 'industry', mentions: industryOf(p.a.industry).keyword },
        { entityId: p.b.id, fact: 'industry', mentions: industryOf(p.b.industry).keyword },
      ],
      about: [p.a.id, p.b.id],
    }
  }

  const sameCountry: Template = ({ rng }) => {
    const p = yesNoPair(rng, citiesByCountry, (x) => x.countryId)
    if (!p) return null
    return {
      template: 'cities-same-country',
      type: 'comparison',
      question: rng.pick(['Are {a} and {b} in the same country?', 'Are {a} and {b} located in the same country?']).replace('{a}', p.a.name).replace('{b}', p.b.name),
      answers: yesNo(p.yes),
      support: [
        { entityId: p.a.id, fact: 'country', mentions: world.country(p.a.countryId).name },
        { entityId: p.b.id, fact: 'country', mentions: world.country(p.b.countryId).name },
      ],
      about: [p.a.id, p.b.id],
    }
  }

  return [
    [foundedFirst, 2],
    [bornFirst, 2],
    [largerCity, 1],
    [olderCity, 1],
    [earlierWork, 0.7],
    [longerRiver, 0.4],
    [bothFromCountry, 1],
    [sameNationality, 1],
    [sameProfession, 0.8],
    [sameKind, 1],
    [sameCountry, 1],
  ]
}
