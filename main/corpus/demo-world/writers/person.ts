import { type DateStyle, decade, formatDate, yearsBetween } from '../dates'
import { OCCUPATIONS, WORK_KINDS } from '../domains'
import { articleForNumber, capitalise, countWord, Draft, possessive, PRONOUNS, withArticle } from '../text'
import { type Person, PRESENT_YEAR } from '../world'
import { type Article, fill, personRef, type WriterContext } from './shared'

const PARENT_JOBS = ['schoolteacher', 'ferryman', 'clockmaker', 'railway clerk', 'tailor', 'customs officer', 'baker', 'pharmacist', 'carpenter', 'parish organist', 'shopkeeper', 'lock keeper'] as const
const MOTHER_ACTS = ['kept the family accounts', 'taught piano to the neighbours', 'ran a small bakery', 'worked as a seamstress', 'wrote for a local almanac', 'managed a boarding house'] as const
const BIRTH_ORDER = ['eldest', 'second', 'third', 'youngest'] as const
const CHILDHOOD = [
  'collected beetles along the riverbank',
  'spent long summers on an uncle\'s farm',
  'read everything in the parish library',
  'was often ill and was taught at home',
  'sang in the cathedral choir',
  'built model boats from scrap wood',
  'helped out in the family shop after school',
] as const
const TALENTS = ['drawing', 'arithmetic', 'languages', 'music', 'mechanics', 'storytelling', 'chess'] as const
const STUDENT_YEARS = [
  'poverty and long evenings in the library',
  'a lasting friendship with several future politicians',
  'a serious illness that cost {obj} a full year',
  'an early and noisy interest in politics',
  'prizes in almost every examination',
] as const
const EFFECTS = [
  'brought {obj} wide recognition',
  'was largely ignored at the time',
  'drew sharp criticism from rivals',
  'was later taken up by others',
  'earned {obj} a modest but steady income',
] as const
const TRAITS = [
  'patient and exacting',
  'generous with younger colleagues',
  'stubborn in argument',
  'shy in public but witty in private',
  'tireless and rather impatient',
  'meticulous about records',
] as const
const LATER_LIFE = [
  'withdrew from public affairs',
  'grew increasingly deaf but kept working',
  'devoted much of {poss} time to gardening',
  'taught a small circle of private students',
  'lived quietly in the countryside',
  'wrote a long and rather guarded memoir',
] as const
const SENIOR_ROLES = ['head of department', 'deputy director', 'one of the senior staff', 'a member of the board', 'chief adviser to the directors'] as const
const VIEWS = ['liberal', 'conservative', 'radical', 'cautious and moderate', 'strongly egalitarian'] as const
const POLITICS = [
  'wrote often to the newspapers',
  'stood once, unsuccessfully, for parliament',
  'otherwise avoided politics altogether',
  'supported the campaign for universal suffrage',
  'served for a time on the city council',
] as const
const HOBBIES = [
  'was a keen sailor',
  'collected old maps and travel books',
  'kept bees in a small garden',
  'played the cello in an amateur quartet',
  'walked in the mountains every summer',
  'was a strong chess player',
] as const
const MEMORIALS = ['street', 'school', 'small park', 'lecture hall', 'ferry', 'public library'] as const
const LEGACY = [
  '{Poss} papers are kept in the national archive.',
  '{Poss} name is still familiar to students of {field}.',
  'Historians continue to debate the extent of {poss} influence on {field}.',
  'A collection of {poss} letters appeared in print some years later.',
  'A portrait of {obj} hangs in the national gallery.',
] as const

/**
 * A biography in the usual order: lead, birth, early life, education, career, works, honours,
 * marriage, death, legacy. Sentences tagged with a fact key are the ones questions may cite; the
 * untagged ones are filler, so that retrieval has to find the evidence rather than take every sentence.
 */
export function writePerson(ctx: WriterContext, p: Person): Article {
  const { world, rng } = ctx
  const d = new Draft()
  const pr = PRONOUNS[p.gender]
  const occupation = OCCUPATIONS[p.occupation]
  const country = world.country(p.countryId)
  const birthCity = world.city(p.birthCityId)
  const dead = p.death !== undefined
  const lastYear = p.death ? p.death.year : PRESENT_YEAR
  const style: DateStyle = rng.weighted([['dmy', 5], ['mdy', 3], ['iso', 1]] as const)
  // ISO dates read naturally only in the parenthesised life span; prose uses the spelled-out styles.
  const prose: DateStyle = style === 'iso' ? 'dmy' : style
  const born = formatDate(p.birth, prose)
  // Own-article references alternate between the surname (with the occasional honorific) and a pronoun.
  const surname = (): string => (p.honorific && rng.chance(0.3) ? `${p.honorific} ${p.family}` : p.family)
  const who = (): string => (rng.chance(0.5) ? surname() : pr.subject)
  const Who = (): string => capitalise(who())
  const vals = { subj: pr.subject, Subj: capitalise(pr.subject), poss: pr.possessive, Poss: capitalise(pr.possessive), obj: pr.object, field: occupation.field }
  const role = `${country.demonym} ${occupation.title}`
  const fatherJob = rng.pick(PARENT_JOBS)
  const tail = rng.pick(['', '', ` known for ${pr.possessive} work in ${occupation.field}`, ` remembered chiefly for ${pr.possessive} contributions to ${occupation.field}`])

  // Lead and birth: either the dates go in parentheses after the name, or into their own sentence.
  if (rng.chance(0.45)) {
    const bornInLead = formatDate(p.birth, style)
    const span = p.death ? `${bornInLead} – ${formatDate(p.death, style)}` : `born ${bornInLead}`
    d.add(`${p.name} (${span}) ${dead ? 'was' : 'is'} ${withArticle(role)}${tail}`, 'nationality', 'occupation', 'birthDate')
    d.add(
      rng.pick([
        `${Who()} was born in ${birthCity.name}, the ${rng.pick(BIRTH_ORDER)} of ${countWord(rng.int(3, 9))} children`,
        `${Who()} was born and raised in ${birthCity.name}`,
        `${Who()} was born in ${birthCity.name}, where ${pr.possessive} father worked as ${withArticle(fatherJob)}`,
      ]),
      'birthPlace',
    )
  } else {
    d.add(`${p.name} ${dead ? 'was' : 'is'} ${withArticle(role)}${tail}`, 'nationality', 'occupation')
    d.add(
      rng.pick([
        `${Who()} was born on ${born} in ${birthCity.name}`,
        `${Who()} was born in ${birthCity.name} on ${born}`,
        `Born in ${birthCity.name} on ${born}, ${p.family} grew up in modest circumstances`,
      ]),
      'birthDate',
      'birthPlace',
    )
  }

  const early = [
    `${capitalise(pr.possessive)} father was ${withArticle(fatherJob)} and ${pr.possessive} mother ${rng.pick(MOTHER_ACTS)}`,
    `As a child ${pr.subject} ${rng.pick(CHILDHOOD)}`,
    `${p.family} showed an early talent for ${rng.pick(TALENTS)}, which ${pr.possessive} teachers encouraged`,
    `${capitalise(pr.possessive)} family moved several times before settling in a quiet district near the harbour`,
    `The household was ${rng.pick(['crowded but cheerful', 'strict and religious', 'comfortable but not wealthy', 'often short of money'])}`,
  ]
  for (const s of rng.sample(early, rng.int(2, 3))) d.add(s)

  if (p.educationId !== undefined && p.graduated !== undefined) {
    const uni = world.organisation(p.educationId).name
    const subject = occupation.studies ?? occupation.field
    d.add(
      rng.pick([
        `${Who()} studied ${subject} at ${uni}, graduating in ${p.graduated}`,
        `After leaving school, ${p.family} enrolled at ${uni} to read ${subject}`,
        `${Who()} earned a degree in ${subject} from ${uni} in ${p.graduated}`,
      ]),
      'education',
    )
    if (rng.chance(0.6)) d.add(fill(`${capitalise(pr.possessive)} student years were marked by ${rng.pick(STUDENT_YEARS)}`, vals))
  }

  if (p.employerId !== undefined && p.joined !== undefined) {
    const org = world.organisation(p.employerId).name
    d.add(
      rng.pick([
        `In ${p.joined} ${pr.subject} joined ${org}`,
        `${p.family} spent most of ${pr.possessive} career at ${org}, which ${pr.subject} joined in ${p.joined}`,
        `${Who()} worked for ${org} from ${p.joined} onward`,
        `In ${p.joined} ${p.family} took a position as ${withArticle(occupation.title)} at ${org}`,
      ]),
      'employer',
    )
  }
  if (p.joined !== undefined && rng.chance(0.6)) {
    const by = Math.min(lastYear - 1, p.joined + rng.int(5, 20))
    if (by > p.joined) d.add(`By ${by} ${pr.subject} had become ${rng.pick(SENIOR_ROLES)} there`)
  }
  for (const orgId of p.foundedOrgIds) {
    const org = world.organisation(orgId)
    const where = world.city(org.hqCityId).name
    d.add(
      rng.pick([
        `In ${org.founded.year} ${pr.subject} founded ${org.name} in ${where}`,
        `${p.family} established ${org.name} in ${org.founded.year}`,
        `${Who()} went on to found ${org.name}, which opened in ${where} in ${org.founded.year}`,
      ]),
      `founded:${org.id}`,
    )
  }
  if (p.employerId === undefined && p.foundedOrgIds.length === 0) {
    d.add(
      rng.pick([
        `${Who()} worked independently for most of ${pr.possessive} life`,
        `${p.family} never held a permanent post and lived on commissions and private teaching`,
      ]),
    )
  }

  // Career: deeds placed in decades of the working life, a move, a correspondent, a remark from colleagues.
  const workingFrom = p.birth.year + 25
  const workingTo = Math.max(workingFrom, Math.min(lastYear, p.birth.year + 65))
  const deeds = rng.sample(occupation.deeds, rng.int(2, 4))
  const deedYears = deeds.map(() => rng.int(workingFrom, workingTo)).sort((a, b) => a - b)
  const effects = rng.shuffled(EFFECTS)
  deeds.forEach((deed, i) => {
    const when = decade(deedYears[i] ?? workingFrom)
    const effect = fill(effects[i % effects.length] ?? '', vals)
    d.add(
      rng.pick([
        `During the ${when} ${p.family} ${deed}, work that ${effect}`,
        `In the ${when} ${pr.subject} ${deed}`,
        `${Who()} also ${deed}, which ${effect}`,
      ]),
    )
  })
  if (rng.chance(0.5)) {
    const city = rng.pick(world.cities)
    if (city.id !== p.birthCityId) {
      d.add(`In ${rng.int(workingFrom, workingTo)} ${pr.subject} moved to ${city.name}, where ${pr.subject} lived for ${countWord(rng.int(2, 12))} years`)
    }
  }
  // Correspondents and partners must have been adults at the same time as the subject.
  const contemporary = (q: Person): boolean =>
    q.id !== p.id && q.id !== p.spouseId && Math.max(q.birth.year, p.birth.year) + 20 < Math.min(q.death ? q.death.year : PRESENT_YEAR, lastYear)
  if (rng.chance(0.5)) {
    const peer = rng.pick(world.people)
    if (contemporary(peer)) {
      d.add(`${Who()} corresponded for many years with the ${OCCUPATIONS[peer.occupation].title} ${personRef(ctx, peer)}`)
    }
  }
  if (rng.chance(0.5)) {
    let partner: Person | undefined
    for (let i = 0; i < 8 && !partner; i++) {
      const q = rng.pick(world.people)
      if (q.occupation === p.occupation && contemporary(q)) partner = q
    }
    if (partner) {
      d.add(`With ${partner.name} ${pr.subject} ${rng.pick(['shared a workshop', 'ran a small journal', 'organised a series of public lectures', 'quarrelled publicly'])} for some years`)
    } else {
      d.add(`${Who()} ${rng.pick(['kept detailed diaries', 'gave regular public lectures', 'sat on several government committees', 'travelled widely'])} throughout ${pr.possessive} working life`)
    }
  }
  if (rng.chance(0.4)) {
    const abroad = rng.pick(world.countries)
    if (abroad.id !== p.countryId) {
      d.add(`A long stay in ${abroad.name} in ${rng.int(workingFrom, workingTo)} left a mark on ${pr.possessive} later work`)
    }
  }
  if (rng.chance(0.6)) d.add(`Colleagues remembered ${pr.object} as ${rng.pick(TRAITS)}`)
  if (rng.chance(0.5)) d.add(`${Who()} held ${rng.pick(VIEWS)} views and ${rng.pick(POLITICS)}`)
  if (rng.chance(0.6)) d.add(fill(`Outside work ${pr.subject} ${rng.pick(HOBBIES)}`, vals))

  p.workIds.slice(0, 4).forEach((workId, i) => {
    const work = world.work(workId)
    const kind = WORK_KINDS[work.kind]
    d.add(
      rng.pick([
        `${capitalise(pr.possessive)} ${i === 0 ? 'first ' : ''}${kind.noun}, ${work.title}, was ${kind.appeared} in ${work.year}`,
        `In ${work.year} ${p.family} completed ${work.title}, ${withArticle(kind.noun)} that ${rng.pick(['made', 'sealed', 'divided'])} ${pr.possessive} reputation`,
        `${work.title}, ${articleForNumber(work.year)} ${work.year} ${kind.noun}, is among ${possessive(p.family)} best-known works`,
      ]),
      `work:${work.id}`,
    )
  })

  for (const win of p.awards.slice(0, 4)) {
    const award = world.award(win.awardId).name
    d.add(
      rng.pick([
        `${Who()} received the ${award} in ${win.year}`,
        `In ${win.year} ${p.family} was awarded the ${award}`,
        `${capitalise(pr.subject)} won the ${award} in ${win.year}`,
      ]),
      `award:${win.awardId}`,
    )
  }

  if (p.spouseId !== undefined && p.married !== undefined) {
    const spouse = world.person(p.spouseId)
    const spouseJob = OCCUPATIONS[spouse.occupation].title
    d.add(
      rng.pick([
        `${Who()} married ${personRef(ctx, spouse)} in ${p.married}`,
        `In ${p.married} ${p.family} married the ${spouseJob} ${spouse.name}`,
        `${capitalise(pr.possessive)} marriage to ${spouse.name} in ${p.married} lasted for the rest of ${pr.possessive} life`,
      ]),
      'spouse',
    )
    if (rng.chance(0.6)) {
      const children = rng.int(0, 6)
      d.add(children === 0 ? 'The couple had no children' : `The couple had ${countWord(children)} ${children === 1 ? 'child' : 'children'}`)
    }
  }

  if (p.death !== undefined) {
    if (rng.chance(0.5)) d.add(fill(`In later life ${pr.subject} ${rng.pick(LATER_LIFE)}`, vals))
    const place = world.city(p.deathCityId ?? p.birthCityId).name
    const died = formatDate(p.death, prose)
    const age = yearsBetween(p.birth, p.death)
    d.add(
      rng.pick([
        `${Who()} died in ${place} on ${died}`,
        `${p.family} died on ${died} in ${place} at the age of ${age}`,
        `${capitalise(pr.subject)} died at ${pr.possessive} home in ${place} in ${p.death.year}, aged ${age}`,
      ]),
      'death',
    )
  }

  if (rng.chance(0.5)) d.add(`A ${rng.pick(MEMORIALS)} in ${birthCity.name} is named after ${pr.object}`)
  if (dead && p.birth.year + 100 < PRESENT_YEAR && rng.chance(0.4)) {
    d.add(`In ${p.birth.year + 100} a centenary exhibition on ${pr.possessive} life and work was held in ${world.city(world.country(p.countryId).capitalId).name}`)
  }
  for (const s of rng.sample(LEGACY, rng.int(1, 2))) d.add(fill(s, vals))
  return { entityId: p.id, kind: 'person', title: p.name, draft: d }
}
