import { century, decade, formatDate, monthName, randomDate } from '../dates'
import { byCodeUnits, countWord, Draft, formatCount, listing, possessive } from '../text'
import { type City, type Country, PRESENT_YEAR, type River } from '../world'
import { type Article, someNames, someYears, type WriterContext } from './shared'

const DIRECTIONS = ['north', 'south', 'east', 'west', 'interior', 'far north', 'southwest', 'northeast'] as const
const CITY_KINDS = ['city', 'port city', 'market city', 'university city', 'industrial city', 'cathedral city'] as const
const ORIGINS = ['fishing village', 'river crossing', 'fortified monastery', 'salt market', 'toll station', 'royal hunting lodge'] as const
const CLIMATES = [
  'a mild maritime climate with long, foggy winters',
  'a dry continental climate with hot summers and cold winters',
  'a cool, wet climate with frequent autumn storms',
  'a warm temperate climate with little snow',
] as const
const OLD_TOWN = ['narrow lanes and timber houses', 'covered markets', 'painted guild halls', 'stone bridges', 'arcaded squares', 'steep stairways down to the water'] as const
const DISTRICTS = ['harbour district', 'old town', 'northern suburbs', 'market quarter', 'cathedral close'] as const
const FESTIVALS = ['a week-long music festival', 'a horse fair', 'a lantern procession along the waterfront', 'a large book fair', 'a harvest market'] as const
const SECTORS = ['fishing', 'tourism', 'shipbuilding', 'food processing', 'printing', 'timber', 'wine', 'logistics', 'higher education'] as const
/** Events for the history paragraph, each with the earliest year it could plausibly happen. */
const HISTORY: readonly (readonly [string, number])[] = [
  ['a peasant uprising spread through the southern provinces', 0],
  ['the first national railway opened', 1830],
  ['a new constitution was adopted', 0],
  ['women gained the right to vote', 1890],
  ['a border dispute with {neighbour} was settled by treaty', 0],
  ['a severe famine struck the eastern provinces', 0],
  ['the country signed a trade agreement with {neighbour}', 0],
  ['the old provincial assemblies were abolished', 0],
  ['the first national census was taken', 1750],
  ['a general strike paralysed the ports for several weeks', 1880],
]
const LANDMARKS = ['cathedral', 'town hall', 'old bridge', 'citadel', 'covered market', 'opera house', 'customs house', 'clock tower'] as const
const FOODS = ['smoked fish', 'rye bread', 'plum dumplings', 'spiced sausages', 'sheep cheese', 'honey cakes'] as const
const RIVER_TRAITS = ['spring floods', 'salmon runs', 'clear, cold water', 'many islands', 'steep gorges'] as const

const place = (name: string): string => (name.startsWith('Lake ') ? name : `the ${name}`)

export function writeCountry(ctx: WriterContext, c: Country): Article {
  const { world, rng } = ctx
  const d = new Draft()
  const capital = world.city(c.capitalId)
  const others = c.cityIds.filter((id) => id !== c.capitalId).map((id) => world.city(id).name)
  d.add(`${c.name} is a country ${c.position}`, 'lead')
  d.add(`Its capital and largest city is ${capital.name}`, 'capital')
  if (others.length === 1) d.add(`The other major city is ${others[0]}`)
  else if (others.length > 1) d.add(`Other cities include ${listing(rng.sample(others, 4))}`)
  d.add(`${c.name} became independent on ${formatDate(c.independence, rng.pick(['dmy', 'mdy'] as const))}`, 'independence')
  d.add(`The country is divided into ${c.provinces} provinces`)
  // A short history: a few events in date order, some before and some after independence.
  const neighbours = world.countries.filter((x) => x.id !== c.id)
  const unused = rng.shuffled(HISTORY)
  for (const year of someYears(rng, c.independence.year - 150, PRESENT_YEAR - 10, rng.int(3, 6))) {
    const at = unused.findIndex(([, earliest]) => earliest <= year)
    if (at < 0) continue
    const [event] = unused.splice(at, 1)[0] ?? ['']
    const neighbour = neighbours.length > 0 ? rng.pick(neighbours).name : 'its neighbours'
    d.add(`In ${year} ${event.replace('{neighbour}', neighbour)}`)
  }
  d.add(`The official language is ${c.demonym}, and the currency is the ${c.demonym} ${c.currency}`)
  const rivers = c.riverIds.map((id) => world.river(id)).sort((a, b) => b.lengthKm - a.lengthKm || byCodeUnits(a.id, b.id))
  if (rivers[0]) d.add(`The longest river in the country is the ${rivers[0].name}, at ${formatCount(rivers[0].lengthKm)} kilometres`)
  const filler = [
    `${c.demonym} cuisine is known for ${listing(rng.sample(FOODS, 2))}`,
    `Most of the population lives in the ${rng.pick(['river valleys', 'coastal lowlands', 'southern plains'])}`,
    `The country has been a parliamentary republic since ${Math.min(PRESENT_YEAR - 5, c.independence.year + rng.int(5, 120))}`,
    `${possessive(c.name)} national assembly meets in ${capital.name}`,
    `The ${rng.pick(['mountains', 'forests', 'lakes', 'islands'])} of the ${rng.pick(['north', 'south', 'east', 'west'])} attract most of its visitors`,
    `Its largest export is ${rng.pick(['timber', 'grain', 'machinery', 'fish', 'wool', 'copper'])}`,
    `Schooling has been compulsory in ${c.name} since ${rng.int(Math.max(1800, c.independence.year), 1960)}`,
  ]
  for (const s of rng.sample(filler, rng.int(3, 5))) d.add(s)
  return { entityId: c.id, kind: 'country', title: c.name, draft: d }
}

export function writeCity(ctx: WriterContext, c: City): Article {
  const { world, rng } = ctx
  const d = new Draft()
  const country = world.country(c.countryId)
  if (c.capital) {
    d.add(rng.pick([`${c.name} is the capital and largest city of ${country.name}`, `${c.name} is the capital of ${country.name}`]), 'country')
  } else {
    d.add(`${c.name} is a ${rng.pick(CITY_KINDS)} in the ${rng.pick(DIRECTIONS)} of ${country.name}`, 'country')
  }
  d.add(
    rng.pick([
      `${c.name} was founded in ${c.founded}`,
      `The city was founded in ${c.founded} as a ${rng.pick(ORIGINS)}`,
      `Founded in ${c.founded} around a ${rng.pick(ORIGINS)}, ${c.name} grew slowly for several centuries`,
    ]),
    'founded',
  )
  if (c.riverId !== undefined) {
    const river = world.river(c.riverId).name
    d.add(
      rng.pick([`${c.name} lies on the ${river}`, `The ${river} flows through the centre of the city`, `The city stands on both banks of the ${river}`]),
      'river',
    )
  }
  const people = formatCount(c.population)
  d.add(
    rng.pick([
      `At the ${c.censusYear} census the city had a population of ${people}`,
      `${c.name} had ${people} inhabitants in ${c.censusYear}`,
      `Its population was ${people} according to the ${c.censusYear} census`,
    ]),
    'population',
  )
  const orgs = c.hqOrgIds.map((id) => world.organisation(id).name)
  if (orgs.length === 1) d.add(`${orgs[0]} is headquartered in the city`)
  else if (orgs.length > 1) d.add(`Organisations based in ${c.name} include ${listing(rng.sample(orgs, 3))}`)
  if (c.bornIds.length > 0) d.add(`Notable people born in ${c.name} include ${listing(someNames(ctx, c.bornIds, 3, (id) => world.person(id).name))}`)

  const neighbours = country.cityIds.filter((id) => id !== c.id)
  const filler = [
    `The city is divided into ${countWord(rng.int(3, 12))} districts, the oldest of which grew up around the ${rng.pick(['harbour', 'cathedral', 'market square', 'castle'])}`,
    `${c.name} has ${rng.pick(CLIMATES)}`,
    `The old town is known for its ${rng.pick(OLD_TOWN)}`,
    `A fire in ${rng.int(c.founded + 50, 1950)} destroyed much of the ${rng.pick(DISTRICTS)}`,
    `Every ${monthName(randomDate(rng, 2000))} the city holds ${rng.pick(FESTIVALS)}`,
    `The local economy relies on ${listing(rng.sample(SECTORS, 2))}`,
    `${possessive(c.name)} football club has spent most of its history in the second division`,
    `The ${rng.pick(LANDMARKS)} dates from the ${century(rng.int(Math.max(c.founded, 1100), 1880))} and is the best-known building in the city`,
    `Public transport consists of ${rng.pick(['trams and buses', 'buses and a short funicular', 'a suburban railway and buses', 'river ferries and buses'])}`,
    `The population grew quickly after ${rng.pick(['the railway arrived', 'the harbour was deepened', 'the first factories opened', 'the university was enlarged'])} in the ${decade(rng.int(1840, 1960))}`,
    `Much of the centre was rebuilt in ${rng.pick(['stone', 'brick', 'concrete', 'a plain classical style'])} during the ${decade(rng.int(1780, 1970))}`,
  ]
  if (neighbours.length > 0) {
    filler.push(`A railway line linking ${c.name} with ${world.city(rng.pick(neighbours)).name} opened in ${rng.int(1840, 1930)}`)
  }
  for (const s of rng.sample(filler, rng.int(4, 7))) d.add(s)
  return { entityId: c.id, kind: 'city', title: c.name, draft: d }
}

export function writeRiver(ctx: WriterContext, r: River): Article {
  const { world, rng } = ctx
  const d = new Draft()
  const country = world.country(r.countryId)
  d.add(`The ${r.name} is a river in ${country.name}, about ${formatCount(r.lengthKm)} kilometres long`, 'country', 'length')
  d.add(`It rises in ${place(r.source)} and flows into ${place(r.mouth)}`)
  const towns = r.cityIds.map((id) => world.city(id).name)
  if (towns.length > 0) d.add(rng.pick([`Cities on its banks include ${listing(towns.slice(0, 4))}`, `The river passes through ${listing(towns.slice(0, 4))}`]), 'cities')
  const filler = [
    `The ${r.short} was an important trade route in the ${century(rng.int(1200, 1850))}`,
    `Its basin covers about ${formatCount(Math.round(r.lengthKm * rng.int(20, 60)))} square kilometres`,
    `The river is known for its ${rng.pick(RIVER_TRAITS)}`,
    `The first bridge over the lower ${r.short} was built in ${someYears(rng, 1300, 1900, 1)[0] ?? 1700}`,
    `Parts of the river were straightened in the ${decade(rng.int(1820, 1960))} to ease navigation`,
    `Barges still carry ${rng.pick(['gravel', 'grain', 'timber', 'coal'])} on its lower reaches`,
  ]
  for (const s of rng.sample(filler, rng.int(3, 4))) d.add(s)
  return { entityId: r.id, kind: 'river', title: r.name, draft: d }
}
