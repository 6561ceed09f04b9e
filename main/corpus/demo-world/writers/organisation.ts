import { decade, formatDate } from '../dates'
import { capitalise, Draft, formatCount, listing, possessive, withArticle } from '../text'
import { type Award, industryOf, type Organisation, PRESENT_YEAR } from '../world'
import { type Article, personRef, someNames, someYears, type WriterContext } from './shared'

const LOGOS = ['a stylised heron', 'a red anchor', 'two crossed keys', 'a rising sun', 'an open book', 'a stag\'s head'] as const
const OWNERS = ['the descendants of its founder', 'a group of private investors', 'its employees through a cooperative', 'a charitable foundation', 'a larger foreign competitor'] as const
const PATRONS = ['a charitable foundation', 'the state', 'a board of trustees', 'the city council'] as const
const PRIZES = ['a bronze medal and a cash prize', 'a silver medal', 'a diploma and a sum of money', 'a small bronze sculpture', 'a gold pin and a travel grant'] as const

export function writeOrganisation(ctx: WriterContext, o: Organisation): Article {
  const { world, rng } = ctx
  const d = new Draft()
  const industry = industryOf(o.industry)
  const hq = world.city(o.hqCityId).name
  const founder = world.person(o.founderId)
  const the = `the ${industry.noun}`
  const description = rng.pick(industry.descriptions)

  // The lead names what kind of organisation it is; half the time it also says where it is based.
  if (rng.chance(0.5)) {
    d.add(`${o.name} is ${withArticle(description)} headquartered in ${hq}`, 'industry', 'hq')
  } else {
    d.add(`${o.name} is ${withArticle(description)}`, 'industry')
    d.add(rng.pick([`Its headquarters are in ${hq}`, `${capitalise(the)} is based in ${hq}`, `${o.name} has its head office in ${hq}`]), 'hq')
  }

  const style = rng.pick(['dmy', 'mdy'] as const)
  const ledFor = Math.max(2, (founder.death ? founder.death.year : PRESENT_YEAR) - o.founded.year - rng.int(0, 10))
  switch (rng.int(0, 3)) {
    case 0:
      d.add(`It was founded in ${o.founded.year} by ${personRef(ctx, founder)}`, 'founded', 'founder')
      break
    case 1:
      d.add(`${personRef(ctx, founder)} founded ${the} on ${formatDate(o.founded, style)}`, 'founded', 'founder')
      break
    case 2:
      d.add(`${capitalise(the)} was established on ${formatDate(o.founded, style)} by ${personRef(ctx, founder)}`, 'founded', 'founder')
      break
    default:
      d.add(`${capitalise(the)} was founded in ${o.founded.year}`, 'founded')
      d.add(`Its founder was ${personRef(ctx, founder)}, who ran it for ${Math.min(ledFor, 50)} years`, 'founder')
  }

  // History: a few milestones in date order after the founding.
  const years = someYears(rng, o.founded.year + 4, PRESENT_YEAR - 2, rng.int(3, 4))
  const milestones = rng.sample(industry.milestones, years.length)
  years.forEach((year, i) => {
    const milestone = milestones[i]
    if (!milestone) return
    d.add(rng.chance(0.5) ? `In ${year} ${the} ${milestone}` : `During the ${decade(year)} ${the} ${milestone}`)
  })
  const elsewhere = world.cities.length > 1 ? world.cities[rng.int(0, world.cities.length - 1)] : undefined
  if (elsewhere && elsewhere.id !== o.hqCityId && industry.commercial && rng.chance(0.5)) {
    d.add(`In ${rng.int(Math.max(o.founded.year + 2, 1850), PRESENT_YEAR - 1)} ${the} opened a branch in ${elsewhere.name}`)
  }

  d.add(
    rng.pick([
      `As of ${rng.int(2015, PRESENT_YEAR)} it employed about ${formatCount(o.staff)} people`,
      `${capitalise(the)} has roughly ${formatCount(o.staff)} employees`,
    ]),
    'staff',
  )
  if (o.employeeIds.length > 0) {
    const names = someNames(ctx, o.employeeIds, 3, (id) => world.person(id).name)
    d.add(`Notable people who have worked for ${the} include ${listing(names)}`)
  }
  for (const awardId of o.awardIds) {
    const award = world.award(awardId)
    d.add(rng.chance(0.5) ? `Since ${award.established} ${the} has presented the ${award.name}` : `${capitalise(the)} also awards the annual ${award.name}`)
  }
  const filler = [
    `${possessive(o.name)} emblem, ${rng.pick(LOGOS)}, has changed little since the ${decade(rng.int(o.founded.year, PRESENT_YEAR - 10))}`,
    `Its archives are open to researchers by appointment`,
    `${capitalise(the)} moved into its present building in ${rng.int(o.founded.year, PRESENT_YEAR - 1)}`,
    `Today ${the} is owned by ${rng.pick(industry.commercial ? OWNERS : PATRONS)}`,
    `${capitalise(the)} publishes a short annual report on its finances and activities`,
    `A ${rng.pick(['fire', 'flood', 'long strike', 'bitter dispute among its directors'])} in ${rng.int(o.founded.year + 1, PRESENT_YEAR - 1)} almost ended its existence`,
  ]
  for (const s of rng.sample(filler, rng.int(2, 4))) d.add(s)
  return { entityId: o.id, kind: 'organisation', title: o.name, draft: d }
}

export function writeAward(ctx: WriterContext, a: Award): Article {
  const { world, rng } = ctx
  const d = new Draft()
  const presenter = world.organisation(a.presenterId).name
  d.add(`The ${a.name} is an annual award for outstanding work in ${a.field}`)
  if (rng.chance(0.5)) {
    d.add(`It is presented by ${presenter}`, 'presenter')
    d.add(`The award was first given in ${a.established}`, 'established')
  } else {
    d.add(`The award was established in ${a.established} by ${presenter}, which still presents it`, 'presenter', 'established')
  }
  d.add(`Winners receive ${rng.pick(PRIZES)}`)
  const first = a.recipients[0]
  if (first) d.add(`The first recipient named in its records was ${world.person(first.personId).name}, in ${first.year}`)
  if (a.recipients.length > 1) {
    d.add(`Other recipients include ${listing(a.recipients.slice(1, 4).map((w) => world.person(w.personId).name))}`)
  }
  d.add(`The jury consists of ${rng.int(3, 9)} members appointed for three years`)
  const given = new Set(a.recipients.map((w) => w.year))
  const gap = rng.int(a.established + 1, PRESENT_YEAR)
  if (!given.has(gap) && rng.chance(0.5)) d.add(`No award was made in ${gap}`)
  return { entityId: a.id, kind: 'award', title: a.name, draft: d }
}
