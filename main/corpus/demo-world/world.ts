import { compareDates, type DateParts, randomDate } from './dates'
import {
  AWARD_FIELDS,
  AWARD_FORMS,
  COMMON_OCCUPATIONS,
  INDUSTRIES,
  type Industry,
  type IndustryKey,
  OCCUPATIONS,
  type OccupationKey,
  TITLE_ADJECTIVES,
  TITLE_NOUNS,
  WORK_KINDS,
  type WorkKindKey,
} from './domains'
import { NameForge } from './names'
import { byCodeUnits } from './text'
import type { Rng } from './rng'
import {
  CITY_ENDINGS,
  COUNTRY_ENDINGS,
  LANDFORM_ENDINGS,
  RIVER_ENDINGS,
  SURNAME_ENDINGS,
} from './vocabulary'

/**
 * The demo world as facts, before any prose: who was born where, who founded what. Articles and
 * questions are both written from this model, which is what lets every question carry a gold answer
 * and the exact sentences that support it.
 */

/** Latest year anything happens; the world's "present". */
export const PRESENT_YEAR = 2023

export type Gender = 'female' | 'male'

export interface Country {
  id: string
  name: string
  /** Nationality adjective: Quessaria -> Quessarian. */
  demonym: string
  capitalId: string
  cityIds: string[]
  riverIds: string[]
  independence: DateParts
  provinces: number
  currency: string
  /** Where on the continent, as a phrase: "in the eastern highlands". */
  position: string
}

export interface River {
  id: string
  /** Title and full name: "Ossel River". */
  name: string
  /** How running text may shorten it: "the Ossel". */
  short: string
  countryId: string
  lengthKm: number
  source: string
  mouth: string
  cityIds: string[]
}

export interface City {
  id: string
  name: string
  countryId: string
  capital: boolean
  founded: number
  population: number
  censusYear: number
  riverId?: string
  bornIds: string[]
  hqOrgIds: string[]
}

export interface Organisation {
  id: string
  name: string
  industry: IndustryKey
  founded: DateParts
  founderId: string
  hqCityId: string
  staff: number
  employeeIds: string[]
  awardIds: string[]
}

export interface AwardWin {
  awardId: string
  year: number
}

export interface Person {
  id: string
  given: string
  family: string
  name: string
  gender: Gender
  occupation: OccupationKey
  honorific?: 'Dr' | 'Professor'
  countryId: string
  birth: DateParts
  birthCityId: string
  death?: DateParts
  deathCityId?: string
  educationId?: string
  graduated?: number
  employerId?: string
  joined?: number
  spouseId?: string
  married?: number
  foundedOrgIds: string[]
  awards: AwardWin[]
  workIds: string[]
}

export interface Award {
  id: string
  name: string
  field: string
  presenterId: string
  established: number
  recipients: { personId: string; year: number }[]
}

export interface Work {
  id: string
  title: string
  kind: WorkKindKey
  authorId: string
  year: number
  /** Publisher, studio or orchestra that brought it out, when there is a fitting one. */
  producerId?: string
}

export interface World {
  countries: Country[]
  rivers: River[]
  cities: City[]
  organisations: Organisation[]
  people: Person[]
  awards: Award[]
  works: Work[]
  /** Given-name pools, for minor characters that must not collide with any title. */
  givenNames: { female: readonly string[]; male: readonly string[] }
  country: (id: string) => Country
  river: (id: string) => River
  city: (id: string) => City
  organisation: (id: string) => Organisation
  person: (id: string) => Person
  award: (id: string) => Award
  work: (id: string) => Work
}

/** Entities per unit of `size`; every count scales linearly, with floors that keep size 1 interesting. */
export const PER_SIZE = {
  countries: [2.5, 3],
  rivers: [4, 4],
  cities: [12, 10],
  organisations: [14, 12],
  otherPeople: [34, 30],
  awards: [4, 3],
  works: [7, 5],
} as const satisfies Record<string, readonly [number, number]>

export function countFor(kind: keyof typeof PER_SIZE, size: number): number {
  const [per, floor] = PER_SIZE[kind]
  return Math.max(floor, Math.round(per * size))
}

const INDUSTRY_BY_KEY = new Map<IndustryKey, Industry>(INDUSTRIES.map((i) => [i.key, i]))
export const industryOf = (key: IndustryKey): Industry => INDUSTRY_BY_KEY.get(key) as Industry

const POSITIONS = [
  'in the north of the continent',
  'in the south of the continent',
  'in the eastern highlands',
  'on the western coast of the continent',
  'in the central plains',
  'in the northern archipelago',
] as const
const CURRENCY_UNITS = ['crown', 'mark', 'florin', 'thaler', 'ducat', 'real', 'sol'] as const
const SOURCE_FORMS = ['{w} Hills', '{w} Mountains', '{w} Moors', 'Lake {w}'] as const
const MOUTH_FORMS = ['{w} Sea', '{w} Bay', 'Gulf of {w}', 'Lake {w}'] as const

const fill = (form: string, values: Record<string, string>): string =>
  form.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '')

const byId = <T extends { id: string }>(items: readonly T[], what: string): ((id: string) => T) => {
  const map = new Map(items.map((x) => [x.id, x] as const))
  return (id) => {
    const found = map.get(id)
    if (!found) throw new Error(`no ${what} ${id}`)
    return found
  }
}

const pad = (n: number): string => String(n).padStart(5, '0')

/**
 * Roughly log-uniform draw (uniform octave, then uniform within it): populations and staff numbers
 * spread over orders of magnitude. Built from doublings and one multiplication, not Math.log/exp,
 * whose last bits are not guaranteed identical across JavaScript engines.
 */
function logUniform(rng: Rng, lo: number, hi: number): number {
  let octaves = 0
  while (lo * 2 ** (octaves + 1) <= hi) octaves++
  const base = lo * 2 ** rng.int(0, Math.max(0, octaves - 1))
  return Math.min(hi, base * (1 + rng.float()))
}

export function buildWorld(rng: Rng, size: number): World {
  const names = new NameForge(rng.fork('names'))
  const r = rng.fork('facts')

  // Countries and their nationality adjectives.
  const countries: Country[] = []
  for (let i = 0; i < countFor('countries', size); i++) {
    const [ending, adjectiveEnding] = r.pick(COUNTRY_ENDINGS)
    const name = names.coin([ending])
    const demonym = name.slice(0, name.length - ending.length) + adjectiveEnding
    names.reserve(demonym)
    countries.push({
      id: `country-${pad(i)}`,
      name,
      demonym,
      capitalId: '',
      cityIds: [],
      riverIds: [],
      independence: randomDate(r, r.int(1640, 1960)),
      provinces: r.int(4, 26),
      currency: r.pick(CURRENCY_UNITS),
      position: r.pick(POSITIONS),
    })
  }

  const rivers: River[] = []
  for (let i = 0; i < countFor('rivers', size); i++) {
    const short = names.coin(RIVER_ENDINGS)
    const country = countries[i % countries.length] as Country
    const river: River = {
      id: `river-${pad(i)}`,
      name: `${short} River`,
      short,
      countryId: country.id,
      lengthKm: Math.round(logUniform(r, 40, 2400)),
      source: fill(r.pick(SOURCE_FORMS), { w: names.coin(LANDFORM_ENDINGS) }),
      mouth: fill(r.pick(MOUTH_FORMS), { w: names.coin(LANDFORM_ENDINGS) }),
      cityIds: [],
    }
    names.reserve(river.name)
    country.riverIds.push(river.id)
    rivers.push(river)
  }

  // Cities: every country gets a capital and at least one other city before the rest are spread.
  const cities: City[] = []
  const cityCount = Math.max(countFor('cities', size), countries.length * 2)
  for (let i = 0; i < cityCount; i++) {
    const country = i < countries.length * 2 ? (countries[i % countries.length] as Country) : r.pick(countries)
    const capital = country.capitalId === ''
    const city: City = {
      id: `city-${pad(i)}`,
      name: names.coin(CITY_ENDINGS),
      countryId: country.id,
      capital,
      founded: capital ? r.int(700, 1400) : r.int(800, 1880),
      population: Math.round(capital ? logUniform(r, 300_000, 3_500_000) : logUniform(r, 4_000, 900_000)),
      censusYear: r.pick([2011, 2015, 2018, 2020, 2021, 2022]),
      bornIds: [],
      hqOrgIds: [],
    }
    if (capital) country.capitalId = city.id
    country.cityIds.push(city.id)
    cities.push(city)
  }
  // Each river runs through at least one city of its country; about half of the others sit on one too.
  const cityById = byId(cities, 'city')
  for (const river of rivers) {
    const country = countries.find((c) => c.id === river.countryId) as Country
    const dry = country.cityIds.map(cityById).filter((c) => c.riverId === undefined)
    if (dry.length > 0) {
      const city = r.pick(dry)
      city.riverId = river.id
      river.cityIds.push(city.id)
    }
  }
  for (const city of cities) {
    const country = countries.find((c) => c.id === city.countryId) as Country
    if (city.riverId === undefined && country.riverIds.length > 0 && r.chance(0.5)) {
      const riverId = r.pick(country.riverIds)
      const river = rivers.find((x) => x.id === riverId) as River
      city.riverId = river.id
      river.cityIds.push(city.id)
    }
  }

  // Organisations, cycling through the industries so a small world still has one of most kinds.
  const organisations: Organisation[] = []
  let industryCycle: Industry[] = []
  for (let i = 0; i < countFor('organisations', size); i++) {
    if (industryCycle.length === 0) industryCycle = r.shuffled(INDUSTRIES)
    const industry = industryCycle.pop() as Industry
    let name = ''
    do name = fill(r.pick(industry.nameForms), { root: names.coin([...SURNAME_ENDINGS, ...CITY_ENDINGS]) })
    while (!names.reserve(name))
    const hq = r.pick(cities)
    const org: Organisation = {
      id: `org-${pad(i)}`,
      name,
      industry: industry.key,
      founded: randomDate(r, r.int(industry.founded[0], industry.founded[1])),
      founderId: '',
      hqCityId: hq.id,
      staff: Math.round(logUniform(r, industry.staff[0], industry.staff[1])),
      employeeIds: [],
      awardIds: [],
    }
    hq.hqOrgIds.push(org.id)
    organisations.push(org)
  }

  const orgById = byId(organisations, 'organisation')

  const people: Person[] = []
  const newPerson = (occupation: OccupationKey, birthYear: number, birthCity: City): Person => {
    const gender: Gender = r.chance(0.5) ? 'female' : 'male'
    const given = r.pick(gender === 'female' ? names.femaleGiven : names.maleGiven)
    const family = names.coin(SURNAME_ENDINGS)
    const honorific = OCCUPATIONS[occupation].honorific
    const person: Person = {
      id: `person-${pad(people.length)}`,
      given,
      family,
      name: `${given} ${family}`,
      gender,
      occupation,
      countryId: birthCity.countryId,
      birth: randomDate(r, birthYear),
      birthCityId: birthCity.id,
      foundedOrgIds: [],
      awards: [],
      workIds: [],
    }
    if (honorific && r.chance(0.6)) person.honorific = honorific
    names.reserve(person.name)
    // Most people born before the living generations have died; deaths keep to plausible ages.
    const mustDie = birthYear < 1930 || (birthYear < 1950 && r.chance(0.4))
    if (mustDie) {
      const year = Math.min(PRESENT_YEAR - 1, birthYear + r.int(48, 96))
      const death = randomDate(r, year)
      if (compareDates(death, person.birth) > 0) person.death = death
      else person.death = { year: year + 1, month: person.birth.month, day: person.birth.day }
    }
    birthCity.bornIds.push(person.id)
    people.push(person)
    return person
  }
  const lastYear = (p: Person): number => (p.death ? p.death.year : PRESENT_YEAR)

  // Founders: one per organisation, of an age to found it, usually born in the country it is based in.
  for (const org of organisations) {
    const industry = industryOf(org.industry)
    const hq = cityById(org.hqCityId)
    const home = cities.filter((c) => c.countryId === hq.countryId)
    const birthCity = r.chance(0.7) ? r.pick(home) : r.pick(cities)
    const founder = newPerson(industry.founderOccupation, org.founded.year - r.int(24, 52), birthCity)
    // A founder must outlive the founding by a few years; redraw the death if not.
    if (founder.death && founder.death.year < org.founded.year + 3) {
      founder.death = randomDate(r, Math.min(PRESENT_YEAR - 1, org.founded.year + r.int(5, 40)))
    }
    founder.foundedOrgIds.push(org.id)
    org.founderId = founder.id
  }

  // Everyone else: a job, and an employer whose industry fits it and that existed in their working life.
  const byIndustry = new Map<IndustryKey, Organisation[]>()
  for (const org of organisations) byIndustry.set(org.industry, [...(byIndustry.get(org.industry) ?? []), org])
  const universities = byIndustry.get('university') ?? []
  for (let i = 0; i < countFor('otherPeople', size); i++) {
    const occupation = r.weighted(COMMON_OCCUPATIONS)
    const birthYear = r.int(Math.max(1800, OCCUPATIONS[occupation].bornFrom), 1995)
    const person = newPerson(occupation, birthYear, r.pick(cities))
    const start = birthYear + r.int(22, 34)
    const candidates = OCCUPATIONS[occupation].employers
      .flatMap((k) => byIndustry.get(k) ?? [])
      .filter((o) => o.founded.year < start && start < lastYear(person) - 3)
    if (candidates.length > 0 && r.chance(0.88)) {
      const employer = r.pick(candidates)
      person.employerId = employer.id
      person.joined = start
      employer.employeeIds.push(person.id)
    }
  }

  // Some people studied at a university that already existed when they were eighteen.
  for (const person of people) {
    // Graduation comes before the first job.
    const graduated = Math.min(person.birth.year + r.int(21, 25), (person.joined ?? Number.POSITIVE_INFINITY) - 1)
    const open = universities.filter((u) => u.founded.year <= person.birth.year + 18)
    if (open.length > 0 && graduated < lastYear(person) && r.chance(0.5)) {
      person.educationId = r.pick(open).id
      person.graduated = graduated
    }
  }

  // Where people died: mostly at home or where they worked.
  for (const person of people) {
    if (!person.death) continue
    const workplace = person.employerId ?? person.foundedOrgIds[0]
    const roll = r.float()
    if (roll < 0.5) person.deathCityId = person.birthCityId
    else if (roll < 0.8 && workplace) person.deathCityId = orgById(workplace).hqCityId
    else person.deathCityId = r.pick(cities).id
  }

  // Marriages between people of similar age, each alive at the wedding.
  const byAge = people.slice().sort((a, b) => compareDates(a.birth, b.birth) || byCodeUnits(a.id, b.id))
  for (let i = 0; i < byAge.length; i++) {
    const a = byAge[i] as Person
    if (a.spouseId || !r.chance(0.5)) continue
    const options = byAge.slice(i + 1, i + 8).filter((b) => !b.spouseId && b.birth.year - a.birth.year <= 12)
    if (options.length === 0) continue
    const b = r.pick(options)
    const married = Math.max(a.birth.year, b.birth.year) + r.int(20, 34)
    if (married >= Math.min(lastYear(a), lastYear(b))) continue
    a.spouseId = b.id
    b.spouseId = a.id
    a.married = married
    b.married = married
  }

  // Awards, each presented by a fitting organisation, with recipients from the right professions.
  const awards: Award[] = []
  let fieldCycle: (typeof AWARD_FIELDS)[number][] = []
  for (let i = 0; i < countFor('awards', size); i++) {
    if (fieldCycle.length === 0) fieldCycle = r.shuffled(AWARD_FIELDS)
    const field = fieldCycle.pop() as (typeof AWARD_FIELDS)[number]
    const fitting = field.presenters.flatMap((k) => byIndustry.get(k) ?? []).filter((o) => o.founded.year < 1990)
    const presenter = fitting.length > 0 ? r.pick(fitting) : r.pick(organisations)
    let name = ''
    do name = fill(r.pick(AWARD_FORMS), { root: names.coin(SURNAME_ENDINGS), field: field.field })
    while (!names.reserve(name))
    const award: Award = {
      id: `award-${pad(i)}`,
      name,
      field: field.field.toLowerCase(),
      presenterId: presenter.id,
      established: Math.min(2012, presenter.founded.year + r.int(3, 60)),
      recipients: [],
    }
    const eligible = people.filter(
      (p) => field.occupations.includes(p.occupation) && Math.max(award.established, p.birth.year + 30) <= Math.min(lastYear(p), PRESENT_YEAR),
    )
    for (const p of r.sample(eligible, r.int(2, 6))) {
      const year = r.int(Math.max(award.established, p.birth.year + 30), Math.min(lastYear(p), PRESENT_YEAR))
      award.recipients.push({ personId: p.id, year })
      p.awards.push({ awardId: award.id, year })
    }
    award.recipients.sort((a, b) => a.year - b.year || byCodeUnits(a.personId, b.personId))
    presenter.awardIds.push(award.id)
    awards.push(award)
  }
  for (const p of people) p.awards.sort((a, b) => a.year - b.year || byCodeUnits(a.awardId, b.awardId))

  // Works by the people whose job produces them.
  const works: Work[] = []
  const makers = people.filter((p) => OCCUPATIONS[p.occupation].works && p.birth.year + 25 <= Math.min(lastYear(p), PRESENT_YEAR))
  const producersFor: Record<WorkKindKey, IndustryKey> = {
    novel: 'publishing',
    poems: 'publishing',
    play: 'publishing',
    history: 'publishing',
    symphony: 'orchestra',
    opera: 'orchestra',
    film: 'film',
  }
  for (let i = 0; makers.length > 0 && i < countFor('works', size); i++) {
    const author = r.pick(makers)
    const kind = WORK_KINDS[r.pick<WorkKindKey>(OCCUPATIONS[author.occupation].works ?? ['novel'])]
    const year = r.int(author.birth.year + 25, Math.min(author.birth.year + 60, lastYear(author), PRESENT_YEAR))
    let title = ''
    do
      title = fill(r.pick(kind.titleForms), {
        coined: names.coin(CITY_ENDINGS),
        noun: r.pick(TITLE_NOUNS),
        adj: r.pick(TITLE_ADJECTIVES),
      })
    while (!names.reserve(title))
    const producers = (byIndustry.get(producersFor[kind.key]) ?? []).filter((o) => o.founded.year < year)
    const work: Work = { id: `work-${pad(i)}`, title, kind: kind.key, authorId: author.id, year }
    if (producers.length > 0 && r.chance(0.6)) work.producerId = r.pick(producers).id
    author.workIds.push(work.id)
    works.push(work)
  }

  return {
    countries,
    rivers,
    cities,
    organisations,
    people,
    awards,
    works,
    givenNames: { female: names.femaleGiven, male: names.maleGiven },
    country: byId(countries, 'country'),
    river: byId(rivers, 'river'),
    city: cityById,
    organisation: orgById,
    person: byId(people, 'person'),
    award: byId(awards, 'award'),
    work: byId(works, 'work'),
  }
}
