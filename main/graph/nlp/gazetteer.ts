/**
 * Name lexicon: compromise's built-in lexicon (about 24k entries: given names, surnames, countries,
 * cities, regions, organisations, sports teams) read once as a dictionary, plus a few lists of our
 * own. Looking words up costs nanoseconds; running compromise's tagger costs ~100 µs per word,
 * which is why the tagger itself is not on the hot path.
 */
import nlp from 'compromise'

export type LexClass = 'first' | 'last' | 'person' | 'gpe' | 'loc' | 'org'

// Places compromise does not tag or tags as generic "Place"; continents, seas and regions are LOC.
const OWN_LOC = `
  africa asia europe antarctica oceania australasia eurasia arctic antarctic americas north-america
  south-america central-america latin-america middle-east near-east far-east balkans scandinavia
  caribbean siberia patagonia sahara sahel amazon andes alps himalayas himalaya pyrenees urals
  mediterranean atlantic pacific baltic
  nile amazon yangtze danube rhine volga ganges indus mekong zambezi thames seine loire rhone elbe
  oder vistula dnieper tigris euphrates orinoco parana yukon limpopo irrawaddy brahmaputra
  rockies appalachians carpathians caucasus gobi kalahari atacama serengeti
`
const OWN_GPE = `
  us u.s. usa u.s.a. uk u.k. ussr u.s.s.r. uae prc drc britain great-britain england wales
  northern-ireland holland burma ceylon persia prussia rhodesia zaire yugoslavia czechoslovakia
  soviet-union hong-kong macau vatican
`

const LOC_WORD = / (?:ocean|sea|river|lakes?|islands?|canyon|falls|plain|lowlands?|highlands?)$|^(?:highlands?|lowlands?)$/

let table: Map<string, LexClass> | undefined

function classify(tags: string): LexClass | undefined {
  if (/FemaleName|MaleName|FirstName/.test(tags)) return 'first'
  if (/LastName/.test(tags)) return 'last'
  if (/Person/.test(tags)) return 'person'
  // compromise's "Place" is mostly towns and districts; natural features are caught by LOC_WORD.
  if (/Country|City|Region|Place/.test(tags)) return 'gpe'
  if (/Organization|SportsTeam/.test(tags)) return 'org'
  return undefined
}

function load(): Map<string, LexClass> {
  const map = new Map<string, LexClass>()
  const model = nlp.model() as { one?: { lexicon?: Record<string, string | string[]> } }
  const lexicon = model.one?.lexicon
  if (!lexicon) throw new Error('compromise lexicon not found: nlp.model().one.lexicon changed shape')
  for (const [word, tags] of Object.entries(lexicon)) {
    const cls = classify(Array.isArray(tags) ? tags.join(',') : tags)
    if (cls) map.set(word, cls === 'gpe' && LOC_WORD.test(word) ? 'loc' : cls)
  }
  for (const w of OWN_LOC.trim().split(/\s+/)) map.set(w.replace(/-/g, ' '), 'loc')
  for (const w of OWN_GPE.trim().split(/\s+/)) map.set(w.replace(/-/g, ' '), 'gpe')
  return map
}

/** Class of a lower-case word or space-joined phrase ("new york"), or undefined. */
export function lexClass(lower: string): LexClass | undefined {
  table ??= load()
  return table.get(lower)
}
