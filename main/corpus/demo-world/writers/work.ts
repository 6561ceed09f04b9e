import { century } from '../dates'
import { WORK_KINDS } from '../domains'
import { articleForNumber, countWord, Draft, possessive, withArticle } from '../text'
import { industryOf, PRESENT_YEAR, type Work } from '../world'
import { type Article, personRef, type WriterContext } from './shared'

const ROLES = ['lighthouse keeper', 'young cartographer', 'retired schoolteacher', 'ferry pilot', 'widowed innkeeper', 'watchmaker', 'customs clerk', 'travelling surveyor'] as const
const PLOTS = [
  'tries to keep a failing family business afloat',
  'searches for a brother lost at sea',
  'returns home after twenty years abroad',
  'becomes entangled in a smuggling ring',
  'falls in love with a travelling musician',
  'inherits a house full of strangers',
] as const
const SETTINGS = ['a fishing town during a hard winter', 'a border village in wartime', 'a crumbling seaside hotel', 'a mining valley', 'a royal court in decline'] as const
const THEMES = ['memory and loss', 'the sea and the people who work on it', 'childhood in the provinces', 'exile and return', 'love in old age', 'the changing seasons'] as const
const TOPICS = ['salt trade', 'river guilds', 'growth of the ports', 'old road network', 'rise of the merchant families'] as const
const PRAISE = ['its spare prose', 'its bold orchestration', 'its unsentimental humour', 'its careful structure', 'its striking images', 'its pace'] as const
const ADAPTATIONS = ['stage adaptation', 'radio version', 'television series', 'ballet version', 'graphic novel'] as const

export function writeWork(ctx: WriterContext, w: Work): Article {
  const { world, rng } = ctx
  const d = new Draft()
  const kind = WORK_KINDS[w.kind]
  const author = world.person(w.authorId)
  if (rng.chance(0.5)) {
    d.add(`${w.title} is ${articleForNumber(w.year)} ${w.year} ${kind.noun} by ${personRef(ctx, author)}`, 'author', 'year')
  } else {
    d.add(`${w.title} is ${withArticle(kind.noun)} ${kind.madeBy} ${personRef(ctx, author)}`, 'author')
    d.add(`It was first ${kind.appeared} in ${w.year}`, 'year')
  }
  if (w.producerId !== undefined) {
    const producer = world.organisation(w.producerId)
    const verb = industryOf(producer.industry).key === 'orchestra' ? 'first performed by' : industryOf(producer.industry).key === 'film' ? 'produced by' : 'published by'
    d.add(`It was ${verb} ${producer.name}`, 'producer')
  }

  // What it is about, in the idiom of its kind.
  switch (w.kind) {
    case 'novel':
    case 'play':
    case 'film':
      d.add(`The story follows ${rng.pick(rng.chance(0.5) ? world.givenNames.female : world.givenNames.male)}, a ${rng.pick(ROLES)} who ${rng.pick(PLOTS)}`)
      if (rng.chance(0.6)) d.add(`It is set in ${rng.pick(SETTINGS)}`)
      break
    case 'poems':
      d.add(`The collection contains ${rng.int(24, 90)} poems about ${rng.pick(THEMES)}`)
      break
    case 'symphony':
      d.add(`The work is in ${rng.int(3, 5)} movements and lasts about ${rng.int(25, 70)} minutes`)
      d.add(`Its themes are drawn from ${rng.pick(['folk dances', 'sea shanties', 'church chant', 'street songs'])}`)
      break
    case 'opera':
      d.add(`The libretto, set in ${rng.pick(SETTINGS)}, tells of ${rng.pick(THEMES)}`)
      break
    case 'history':
      d.add(`The book traces the ${rng.pick(TOPICS)} from the ${century(rng.int(900, 1300))} to the ${century(rng.int(1400, 1900))}`)
      break
  }

  if (rng.chance(0.6)) d.add(`${possessive(author.family)} work on it took ${countWord(rng.int(2, 9))} years`)
  const reception = [
    `Critics praised ${rng.pick(PRAISE)}`,
    `Sales were ${rng.pick(['modest', 'strong', 'disappointing'])} in the first year`,
    `It was poorly received at first but later found a wide audience`,
    `It has been translated into ${rng.int(3, 30)} languages`,
  ]
  if (w.year < PRESENT_YEAR - 5) reception.push(`A ${rng.pick(ADAPTATIONS)} followed in ${rng.int(w.year + 2, PRESENT_YEAR - 1)}`)
  for (const s of rng.sample(reception, rng.int(2, 3))) d.add(s)
  return { entityId: w.id, kind: 'work', title: w.title, draft: d }
}
