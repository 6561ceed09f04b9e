import { WORK_KINDS } from '../domains'
import type { Organisation, Person } from '../world'
import { personAnswers, pickWhere, type QuestionContext, type Template } from './shared'

/**
 * Two-hop questions. The question names one entity; the first supporting sentence (in that entity's
 * article) names the bridge entity; the second (in the bridge's article) states the answer. The bridge
 * never appears in the question, so neither article alone answers it.
 */

const founderBirthCity: Template = ({ world, rng }) => {
  const org = rng.pick(world.organisations)
  const founder = world.person(org.founderId)
  const city = world.city(founder.birthCityId)
  return {
    template: 'founder-birthplace',
    type: 'bridge',
    question: rng
      .pick(['In which city was the founder of {o} born?', 'Where was the person who founded {o} born?', 'What is the birthplace of the founder of {o}?'])
      .replace('{o}', org.name),
    answers: [city.name],
    support: [
      { entityId: org.id, fact: 'founder', mentions: founder.name },
      { entityId: founder.id, fact: 'birthPlace', mentions: city.name },
    ],
    bridge: founder.name,
    about: [org.id],
  }
}

const founderNationality: Template = ({ world, rng }) => {
  const org = rng.pick(world.organisations)
  const founder = world.person(org.founderId)
  const demonym = world.country(founder.countryId).demonym
  return {
    template: 'founder-nationality',
    type: 'bridge',
    question: rng.pick(['What nationality was the founder of {o}?', 'What was the nationality of the person who founded {o}?']).replace('{o}', org.name),
    answers: [demonym],
    support: [
      { entityId: org.id, fact: 'founder', mentions: founder.name },
      { entityId: founder.id, fact: 'nationality', mentions: demonym },
    ],
    bridge: founder.name,
    about: [org.id],
  }
}

const employed = (qc: QuestionContext): Person | null => pickWhere(qc.rng, qc.world.people, (p) => p.employerId !== undefined)

const spouseEmployer: Template = ({ world, rng }) => {
  const person = pickWhere(rng, world.people, (p) => p.spouseId !== undefined && world.person(p.spouseId).employerId !== undefined, 40)
  if (!person?.spouseId) return null
  const spouse = world.person(person.spouseId)
  const employer = world.organisation(spouse.employerId as string)
  const partner = spouse.gender === 'female' ? 'wife' : 'husband'
  return {
    template: 'spouse-employer',
    type: 'bridge',
    question: rng
      .pick(['Which organisation did the spouse of {p} work for?', `Where did the ${partner} of {p} work?`, `For which organisation did {p}'s ${partner} work?`])
      .replace('{p}', person.name),
    answers: [employer.name],
    support: [
      { entityId: person.id, fact: 'spouse', mentions: spouse.name },
      { entityId: spouse.id, fact: 'employer', mentions: employer.name },
    ],
    bridge: spouse.name,
    about: [person.id],
  }
}

const employerOf = (qc: QuestionContext, p: Person): Organisation => qc.world.organisation(p.employerId as string)

const employerFounded: Template = (qc) => {
  const person = employed(qc)
  if (!person) return null
  const org = employerOf(qc, person)
  const year = String(org.founded.year)
  return {
    template: 'employer-founded',
    type: 'bridge',
    question: qc.rng
      .pick(['In what year was the employer of {p} founded?', 'When was the organisation that {p} worked for founded?'])
      .replace('{p}', person.name),
    answers: [year],
    support: [
      { entityId: person.id, fact: 'employer', mentions: org.name },
      { entityId: org.id, fact: 'founded', mentions: year },
    ],
    bridge: org.name,
    about: [person.id],
  }
}

const employerFounder: Template = (qc) => {
  const person = employed(qc)
  if (!person) return null
  const org = employerOf(qc, person)
  const founder = qc.world.person(org.founderId)
  return {
    template: 'employer-founder',
    type: 'bridge',
    question: qc.rng.pick(['Who founded the organisation that {p} worked for?', "Who was the founder of {p}'s employer?"]).replace('{p}', person.name),
    answers: personAnswers(founder),
    support: [
      { entityId: person.id, fact: 'employer', mentions: org.name },
      { entityId: org.id, fact: 'founder', mentions: founder.name },
    ],
    bridge: org.name,
    about: [person.id],
  }
}

const employerCity: Template = (qc) => {
  const person = employed(qc)
  if (!person) return null
  const org = employerOf(qc, person)
  const city = qc.world.city(org.hqCityId)
  return {
    template: 'employer-headquarters',
    type: 'bridge',
    question: qc.rng
      .pick(['In which city is the employer of {p} headquartered?', 'Where is the organisation that employed {p} based?'])
      .replace('{p}', person.name),
    answers: [city.name],
    support: [
      { entityId: person.id, fact: 'employer', mentions: org.name },
      { entityId: org.id, fact: 'hq', mentions: city.name },
    ],
    bridge: org.name,
    about: [person.id],
  }
}

const orgCountry: Template = ({ world, rng }) => {
  const org = rng.pick(world.organisations)
  const city = world.city(org.hqCityId)
  const country = world.country(city.countryId)
  return {
    template: 'headquarters-country',
    type: 'bridge',
    question: rng.pick(['In which country is {o} headquartered?', 'In what country does {o} have its head office?']).replace('{o}', org.name),
    answers: [country.name],
    support: [
      { entityId: org.id, fact: 'hq', mentions: city.name },
      { entityId: city.id, fact: 'country', mentions: country.name },
    ],
    bridge: city.name,
    about: [org.id],
  }
}

const birthRiver: Template = ({ world, rng }) => {
  const person = pickWhere(rng, world.people, (p) => world.city(p.birthCityId).riverId !== undefined, 30)
  if (!person) return null
  const city = world.city(person.birthCityId)
  const river = world.river(city.riverId as string)
  return {
    template: 'birthplace-river',
    type: 'bridge',
    question: rng
      .pick(['Which river flows through the city where {p} was born?', "What river runs through {p}'s birthplace?"])
      .replace('{p}', person.name),
    answers: [river.name, river.short],
    support: [
      { entityId: person.id, fact: 'birthPlace', mentions: city.name },
      { entityId: city.id, fact: 'river', mentions: river.name },
    ],
    bridge: city.name,
    about: [person.id],
  }
}

const cityCapital: Template = ({ world, rng }) => {
  const city = pickWhere(rng, world.cities, (c) => !c.capital)
  if (!city) return null
  const country = world.country(city.countryId)
  const capital = world.city(country.capitalId)
  return {
    template: 'country-capital',
    type: 'bridge',
    question: rng.pick(['What is the capital of the country where {c} is located?', 'Which city is the capital of the country that {c} is in?']).replace('{c}', city.name),
    answers: [capital.name],
    support: [
      { entityId: city.id, fact: 'country', mentions: country.name },
      { entityId: country.id, fact: 'capital', mentions: capital.name },
    ],
    bridge: country.name,
    about: [city.id],
  }
}

const workMakerBirthCity: Template = ({ world, rng }) => {
  if (world.works.length === 0) return null
  const work = rng.pick(world.works)
  const maker = WORK_KINDS[work.kind].maker
  const author = world.person(work.authorId)
  const city = world.city(author.birthCityId)
  return {
    template: 'maker-birthplace',
    type: 'bridge',
    question: rng.pick([`In which city was the ${maker} of {w} born?`, `Where was the ${maker} of {w} born?`]).replace('{w}', work.title),
    answers: [city.name],
    support: [
      { entityId: work.id, fact: 'author', mentions: author.name },
      { entityId: author.id, fact: 'birthPlace', mentions: city.name },
    ],
    bridge: author.name,
    about: [work.id],
  }
}

const workMakerSpouse: Template = ({ world, rng }) => {
  const work = pickWhere(rng, world.works, (w) => world.person(w.authorId).spouseId !== undefined, 20)
  if (!work) return null
  const maker = WORK_KINDS[work.kind].maker
  const author = world.person(work.authorId)
  const spouse = world.person(author.spouseId as string)
  return {
    template: 'maker-spouse',
    type: 'bridge',
    question: rng.pick([`Who was the spouse of the ${maker} of {w}?`, `Whom did the ${maker} of {w} marry?`]).replace('{w}', work.title),
    answers: personAnswers(spouse),
    support: [
      { entityId: work.id, fact: 'author', mentions: author.name },
      { entityId: author.id, fact: 'spouse', mentions: spouse.name },
    ],
    bridge: author.name,
    about: [work.id],
  }
}

const awardPresenterFounder: Template = ({ world, rng }) => {
  if (world.awards.length === 0) return null
  const award = rng.pick(world.awards)
  const org = world.organisation(award.presenterId)
  const founder = world.person(org.founderId)
  return {
    template: 'award-presenter-founder',
    type: 'bridge',
    question: `Who founded the organisation that presents the ${award.name}?`,
    answers: personAnswers(founder),
    support: [
      { entityId: award.id, fact: 'presenter', mentions: org.name },
      { entityId: org.id, fact: 'founder', mentions: founder.name },
    ],
    bridge: org.name,
    about: [award.id],
  }
}

const awardPresenterCity: Template = ({ world, rng }) => {
  if (world.awards.length === 0) return null
  const award = rng.pick(world.awards)
  const org = world.organisation(award.presenterId)
  const city = world.city(org.hqCityId)
  return {
    template: 'award-presenter-headquarters',
    type: 'bridge',
    question: `In which city is the organisation that presents the ${award.name} based?`,
    answers: [city.name],
    support: [
      { entityId: award.id, fact: 'presenter', mentions: org.name },
      { entityId: org.id, fact: 'hq', mentions: city.name },
    ],
    bridge: org.name,
    about: [award.id],
  }
}

const educationFounded: Template = ({ world, rng }) => {
  const person = pickWhere(rng, world.people, (p) => p.educationId !== undefined, 30)
  if (!person) return null
  const uni = world.organisation(person.educationId as string)
  const year = String(uni.founded.year)
  return {
    template: 'university-founded',
    type: 'bridge',
    question: rng.pick(['In what year was the university where {p} studied founded?', 'When was the university attended by {p} founded?']).replace('{p}', person.name),
    answers: [year],
    support: [
      { entityId: person.id, fact: 'education', mentions: uni.name },
      { entityId: uni.id, fact: 'founded', mentions: year },
    ],
    bridge: uni.name,
    about: [person.id],
  }
}

/** Templates with relative weights: the common relations get asked about more often. */
export const BRIDGE_TEMPLATES: readonly (readonly [Template, number])[] = [
  [founderBirthCity, 3],
  [founderNationality, 1],
  [spouseEmployer, 2],
  [employerFounded, 2],
  [employerFounder, 2],
  [employerCity, 1.5],
  [orgCountry, 1.5],
  [birthRiver, 1.5],
  [cityCapital, 1],
  [workMakerBirthCity, 1.5],
  [workMakerSpouse, 1],
  [awardPresenterFounder, 1],
  [awardPresenterCity, 0.5],
  [educationFounded, 1],
]
