/**
 * What the demo world's organisations do, what its people do for a living and what they make. These
 * tables drive plausibility (a novelist works for a publisher, not a brewery; software firms are not
 * founded in 1820) and supply the words that name an organisation's kind in its lead sentence, which
 * the same-kind comparison questions rely on.
 */

export type IndustryKey =
  | 'shipping'
  | 'textiles'
  | 'pharmaceuticals'
  | 'publishing'
  | 'railway'
  | 'optics'
  | 'banking'
  | 'brewing'
  | 'aviation'
  | 'software'
  | 'university'
  | 'institute'
  | 'orchestra'
  | 'film'
  | 'newspaper'

export interface Industry {
  key: IndustryKey
  /** Word that every description of the industry contains; compared by same-kind questions. */
  keyword: string
  /** Noun phrases for the lead sentence, each containing `keyword`. */
  descriptions: readonly string[]
  /** How running text refers back to the organisation: "the company", "the orchestra". */
  noun: string
  /** Name patterns; `{root}` is a coined word. */
  nameForms: readonly string[]
  /** Whether "industry" is a natural word for it (a bank yes, an orchestra no). */
  commercial: boolean
  /** Range of founding years that fits the industry's history. */
  founded: readonly [number, number]
  founderOccupation: OccupationKey
  /** Past-tense verb phrases for the history paragraph. */
  milestones: readonly string[]
  staff: readonly [number, number]
}

export const INDUSTRIES: readonly Industry[] = [
  {
    key: 'shipping',
    keyword: 'shipping',
    descriptions: ['shipping company', 'shipping line carrying freight and passengers', 'coastal shipping firm'],
    noun: 'company',
    nameForms: ['{root} Shipping Company', '{root} Line', '{root} Maritime'],
    commercial: true,
    founded: [1780, 1965],
    founderOccupation: 'merchant',
    milestones: [
      'added a fleet of refrigerated cargo ships',
      'opened a passenger route to the southern islands',
      'sold the last of its sailing vessels',
      'built a dry dock beside its main wharf',
      'lost two steamers in a winter storm',
    ],
    staff: [300, 9000],
  },
  {
    key: 'textiles',
    keyword: 'textile',
    descriptions: ['textile manufacturer', 'textile company known for woollen cloth', 'textile mill operator'],
    noun: 'firm',
    nameForms: ['{root} Mills', '{root} Textile Works', '{root} Weaving Company'],
    commercial: true,
    founded: [1760, 1955],
    founderOccupation: 'industrialist',
    milestones: [
      'installed its first power looms',
      'began exporting printed cotton',
      'closed its oldest spinning mill',
      'introduced a line of waterproof fabrics',
      'opened a dye works on the edge of town',
    ],
    staff: [150, 6000],
  },
  {
    key: 'pharmaceuticals',
    keyword: 'pharmaceutical',
    descriptions: ['pharmaceutical company', 'pharmaceutical manufacturer', 'pharmaceutical research firm'],
    noun: 'company',
    nameForms: ['{root} Laboratories', '{root} Pharmaceuticals', '{root} Remedies'],
    commercial: true,
    founded: [1850, 1995],
    founderOccupation: 'chemist',
    milestones: [
      'began producing vaccines for livestock',
      'opened a research campus in the suburbs',
      'recalled a cough syrup after complaints',
      'licensed its first antibiotic',
      'merged its two largest laboratories',
    ],
    staff: [200, 12000],
  },
  {
    key: 'publishing',
    keyword: 'publishing',
    descriptions: ['publishing house', 'publishing company specialising in fiction and poetry', 'independent publishing house'],
    noun: 'publisher',
    nameForms: ['{root} Press', '{root} Books', '{root} Publishing'],
    commercial: true,
    founded: [1770, 1995],
    founderOccupation: 'publisher',
    milestones: [
      'launched a series of cheap paperback classics',
      'moved its printing works out of the city centre',
      'started a quarterly literary review',
      'bought a rival list of travel books',
      'won a long copyright dispute in the courts',
    ],
    staff: [20, 900],
  },
  {
    key: 'railway',
    keyword: 'railway engineering',
    descriptions: ['railway engineering company', 'railway engineering firm that builds locomotives', 'railway engineering works'],
    noun: 'company',
    nameForms: ['{root} Locomotive Works', '{root} Rail Engineering', '{root} Railway Foundry'],
    commercial: true,
    founded: [1830, 1965],
    founderOccupation: 'engineer',
    milestones: [
      'delivered its first express locomotive',
      'switched from steam to diesel traction',
      'built the carriages for the royal train',
      'opened a second erecting shop',
      'supplied trams to several foreign cities',
    ],
    staff: [400, 15000],
  },
  {
    key: 'optics',
    keyword: 'optical',
    descriptions: ['optical instruments maker', 'optical company producing lenses and microscopes', 'maker of optical equipment'],
    noun: 'company',
    nameForms: ['{root} Optical', '{root} Lens Company', '{root} Instruments'],
    commercial: true,
    founded: [1800, 1985],
    founderOccupation: 'physicist',
    milestones: [
      'introduced a compact field microscope',
      'supplied rangefinders to the navy',
      'began grinding lenses for observatories',
      'opened a glassworks of its own',
      'brought out its first camera',
    ],
    staff: [60, 4000],
  },
  {
    key: 'banking',
    keyword: 'bank',
    descriptions: ['commercial bank', 'savings bank', 'private bank serving merchants and shipowners'],
    noun: 'bank',
    nameForms: ['{root} Bank', '{root} Savings Bank', '{root} Credit House'],
    commercial: true,
    founded: [1750, 1990],
    founderOccupation: 'banker',
    milestones: [
      'survived a run on its deposits',
      'opened branches in every provincial capital',
      'began lending to small farmers',
      'absorbed two failing rivals',
      'moved its vaults into a new stone building',
    ],
    staff: [50, 20000],
  },
  {
    key: 'brewing',
    keyword: 'brewery',
    descriptions: ['brewery', 'brewery and malting company', 'family-owned brewery'],
    noun: 'brewery',
    nameForms: ['{root} Brewery', '{root} Brewing Company'],
    commercial: true,
    founded: [1700, 1995],
    founderOccupation: 'brewer',
    milestones: [
      'began bottling its beer for export',
      'bought the maltings next door',
      'rebuilt its cellars after a flood',
      'introduced a pale lager',
      'opened a tavern beside the brewhouse',
    ],
    staff: [15, 2500],
  },
  {
    key: 'aviation',
    keyword: 'aircraft',
    descriptions: ['aircraft manufacturer', 'aircraft company building light transport planes', 'aircraft maker'],
    noun: 'company',
    nameForms: ['{root} Aircraft Company', '{root} Aeronautics', '{root} Aero Works'],
    commercial: true,
    founded: [1908, 1990],
    founderOccupation: 'engineer',
    milestones: [
      'flew its first all-metal monoplane',
      'built seaplanes for the coastal patrol',
      'opened a flying school beside its factory',
      'developed a small passenger airliner',
      'lost a large military contract',
    ],
    staff: [100, 14000],
  },
  {
    key: 'software',
    keyword: 'software',
    descriptions: ['software company', 'software developer known for database tools', 'software firm'],
    noun: 'company',
    nameForms: ['{root} Systems', '{root} Software', '{root} Logic'],
    commercial: true,
    founded: [1965, 2012],
    founderOccupation: 'programmer',
    milestones: [
      'released a spreadsheet program for small offices',
      'moved its products to a subscription model',
      'opened a development centre abroad',
      'rewrote its flagship database engine',
      'was listed on the national stock exchange',
    ],
    staff: [10, 8000],
  },
  {
    key: 'university',
    keyword: 'university',
    descriptions: ['public research university', 'university', 'private university'],
    noun: 'university',
    nameForms: ['{root} University', '{root} Technical University', '{root} State University'],
    commercial: false,
    founded: [1480, 1975],
    founderOccupation: 'scholar',
    milestones: [
      'admitted its first women students',
      'opened a faculty of medicine',
      'moved to a larger campus outside the old walls',
      'built a new library with room for a million volumes',
      'merged with a nearby teachers college',
    ],
    staff: [300, 9000],
  },
  {
    key: 'institute',
    keyword: 'research institute',
    descriptions: ['research institute', 'independent research institute', 'publicly funded research institute'],
    noun: 'institute',
    nameForms: ['{root} Institute', '{root} Institute for Advanced Study', '{root} Research Centre'],
    commercial: false,
    founded: [1800, 1995],
    founderOccupation: 'physicist',
    milestones: [
      'built a particle accelerator in its basement',
      'began a long study of coastal erosion',
      'opened a field station in the mountains',
      'started a fellowship programme for foreign scholars',
      'published the first national soil survey',
    ],
    staff: [40, 2500],
  },
  {
    key: 'orchestra',
    keyword: 'orchestra',
    descriptions: ['orchestra', 'professional orchestra', 'concert orchestra'],
    noun: 'orchestra',
    nameForms: ['{root} Philharmonic', '{root} Symphony Orchestra', '{root} Chamber Orchestra'],
    commercial: false,
    founded: [1780, 1985],
    founderOccupation: 'conductor',
    milestones: [
      'made its first gramophone recordings',
      'toured the northern provinces by train',
      'moved into a new concert hall',
      'began a series of free summer concerts',
      'appointed its first woman concertmaster',
    ],
    staff: [40, 160],
  },
  {
    key: 'film',
    keyword: 'film',
    descriptions: ['film studio', 'film production company', 'film company'],
    noun: 'studio',
    nameForms: ['{root} Pictures', '{root} Film Studio', '{root} Films'],
    commercial: true,
    founded: [1905, 1995],
    founderOccupation: 'producer',
    milestones: [
      'released its first sound picture',
      'built a backlot on the edge of the city',
      'went bankrupt and was rescued by its distributors',
      'moved into television production',
      'restored its archive of silent films',
    ],
    staff: [30, 3000],
  },
  {
    key: 'newspaper',
    keyword: 'newspaper',
    descriptions: ['daily newspaper', 'weekly newspaper', 'regional newspaper'],
    noun: 'newspaper',
    nameForms: ['{root} Gazette', '{root} Courier', '{root} Herald'],
    commercial: true,
    founded: [1760, 1995],
    founderOccupation: 'journalist',
    milestones: [
      'switched to a tabloid format',
      'was briefly banned during a censorship dispute',
      'opened a foreign bureau',
      'began printing in colour',
      'launched an evening edition',
    ],
    staff: [20, 1200],
  },
]

export type WorkKindKey = 'novel' | 'poems' | 'play' | 'symphony' | 'opera' | 'film' | 'history'

export interface WorkKind {
  key: WorkKindKey
  /** "a 1934 novel" */
  noun: string
  /** "the author of", "the director of" */
  maker: string
  /** "written by", "directed by" */
  madeBy: string
  /** "published", "premiered", "released" */
  appeared: string
  /** Title patterns; `{coined}` is a coined word, `{noun}`/`{adj}` from the banks below. */
  titleForms: readonly string[]
}

export const WORK_KINDS: Record<WorkKindKey, WorkKind> = {
  novel: {
    key: 'novel',
    noun: 'novel',
    maker: 'author',
    madeBy: 'written by',
    appeared: 'published',
    titleForms: ['The {noun}s of {coined}', '{coined} in Winter', 'The {adj} {noun} of {coined}', 'Letters from {coined}', 'A {noun} for {coined}'],
  },
  poems: {
    key: 'poems',
    noun: 'collection of poems',
    maker: 'author',
    madeBy: 'written by',
    appeared: 'published',
    titleForms: ['Songs of {coined}', '{adj} Hours in {coined}', 'The {coined} Psalms', 'Salt and {coined}'],
  },
  play: {
    key: 'play',
    noun: 'play',
    maker: 'author',
    madeBy: 'written by',
    appeared: 'first staged',
    titleForms: ['The {coined} Inheritance', 'A {adj} Evening at {coined}', 'The Widow of {coined}', '{coined} Returns'],
  },
  symphony: {
    key: 'symphony',
    noun: 'symphony',
    maker: 'composer',
    madeBy: 'composed by',
    appeared: 'first performed',
    titleForms: ['The {coined} Symphony', '{coined} Symphony', 'Symphony of the {coined} Hills'],
  },
  opera: {
    key: 'opera',
    noun: 'opera',
    maker: 'composer',
    madeBy: 'composed by',
    appeared: 'premiered',
    titleForms: ['The Bride of {coined}', '{coined} and the {noun}', 'The {adj} King of {coined}'],
  },
  film: {
    key: 'film',
    noun: 'film',
    maker: 'director',
    madeBy: 'directed by',
    appeared: 'released',
    titleForms: ['{coined} Station', 'The Last Days of {coined}', 'Night over {coined}', 'The {adj} {noun} of {coined}'],
  },
  history: {
    key: 'history',
    noun: 'historical study',
    maker: 'author',
    madeBy: 'written by',
    appeared: 'published',
    titleForms: ['A History of the {coined} Valley', 'The Rise of {coined}', '{coined} and Its Neighbours'],
  },
}

export const TITLE_NOUNS = [
  'Lantern', 'Orchard', 'Harbour', 'Mirror', 'Bell', 'Ferry', 'Lighthouse', 'Thread', 'Compass', 'Sparrow',
  'Tide', 'Garden', 'Bridge', 'Clock', 'Map', 'Violin', 'Kite', 'Quarry',
] as const

export const TITLE_ADJECTIVES = [
  'Quiet', 'Burning', 'Borrowed', 'Narrow', 'Silver', 'Drowned', 'Patient', 'Hollow', 'Crooked', 'Winter',
  'Salted', 'Sleeping', 'Broken', 'Golden',
] as const

export type OccupationKey =
  | 'chemist'
  | 'physicist'
  | 'mathematician'
  | 'botanist'
  | 'physician'
  | 'economist'
  | 'engineer'
  | 'architect'
  | 'novelist'
  | 'poet'
  | 'playwright'
  | 'journalist'
  | 'composer'
  | 'conductor'
  | 'director'
  | 'actor'
  | 'banker'
  | 'merchant'
  | 'brewer'
  | 'pilot'
  | 'programmer'
  | 'historian'
  | 'industrialist'
  | 'publisher'
  | 'producer'
  | 'scholar'
  | 'painter'

export interface Occupation {
  key: OccupationKey
  /** As written after the nationality adjective: "a Quessarian film director". */
  title: string
  /** Subject practised, as in "contributions to chemistry". */
  field: string
  /** Subject read at university when it differs from the field (industrialists read law). */
  studies?: string
  /** Industries that plausibly employ it; empty means self-employed. */
  employers: readonly IndustryKey[]
  /** Occasional title before the name in other articles, written without a period. */
  honorific?: 'Dr' | 'Professor'
  works?: readonly WorkKindKey[]
  /** Earliest plausible birth year (no film directors born in 1800). */
  bornFrom: number
  /** Past-tense verb phrases for the career paragraph. */
  deeds: readonly string[]
}

const occ = (o: Omit<Occupation, 'bornFrom'> & { bornFrom?: number }): Occupation => ({ bornFrom: 1000, ...o })

export const OCCUPATIONS: Record<OccupationKey, Occupation> = {
  chemist: occ({
    key: 'chemist', title: 'chemist', field: 'chemistry', honorific: 'Dr',
    employers: ['pharmaceuticals', 'university', 'institute', 'textiles', 'brewing'],
    deeds: ['developed a cheaper process for making synthetic dyes', 'published a long series of papers on crystal growth', 'studied the chemistry of fermentation', 'designed a safer way of storing volatile solvents'],
  }),
  physicist: occ({
    key: 'physicist', title: 'physicist', field: 'physics', honorific: 'Professor',
    employers: ['university', 'institute', 'optics', 'aviation'],
    deeds: ['measured the heat capacity of rare metals', 'worked on the theory of light scattering', 'built one of the first cloud chambers in the country', 'proposed a new model of magnetic materials'],
  }),
  mathematician: occ({
    key: 'mathematician', title: 'mathematician', field: 'mathematics', honorific: 'Professor',
    employers: ['university', 'institute', 'banking', 'software'],
    deeds: ['proved several results about prime numbers', 'wrote an influential textbook on geometry', 'found faster methods for solving large systems of equations', 'studied the mathematics of knots'],
  }),
  botanist: occ({
    key: 'botanist', title: 'botanist', field: 'botany', honorific: 'Dr',
    employers: ['university', 'institute', 'brewing'],
    deeds: ['catalogued more than two thousand species of moss', 'led collecting expeditions to the eastern highlands', 'bred a frost-resistant variety of barley', 'studied the pollination of wild orchids'],
  }),
  physician: occ({
    key: 'physician', title: 'physician', field: 'medicine', honorific: 'Dr',
    employers: ['pharmaceuticals', 'institute', 'university'],
    deeds: ['ran a free clinic for dock workers', 'traced the spread of fevers through crowded districts', 'introduced strict hygiene rules on hospital wards', 'wrote a widely used handbook on childhood illnesses'],
  }),
  economist: occ({
    key: 'economist', title: 'economist', field: 'economics', honorific: 'Professor',
    employers: ['banking', 'university', 'newspaper'],
    deeds: ['wrote on the causes of banking panics', 'advised the government on currency reform', 'studied wages in the textile districts', 'compiled an early index of consumer prices'],
  }),
  engineer: occ({
    key: 'engineer', title: 'engineer', field: 'engineering',
    employers: ['railway', 'aviation', 'shipping', 'optics', 'software'],
    deeds: ['designed a lighter steam boiler', 'supervised the construction of several bridges', 'patented an improved braking system', 'worked on the design of long-range engines'],
  }),
  architect: occ({
    key: 'architect', title: 'architect', field: 'architecture',
    employers: ['university', 'railway'],
    deeds: ['designed several railway stations', 'rebuilt the old market halls', 'drew plans for workers housing estates', 'restored a number of medieval churches'],
  }),
  novelist: occ({
    key: 'novelist', title: 'novelist', field: 'literature', works: ['novel'],
    employers: ['publishing', 'newspaper', 'university'],
    deeds: ['wrote serial stories for weekly magazines', 'taught creative writing at evening classes', 'edited a literary quarterly', 'translated foreign novels'],
  }),
  poet: occ({
    key: 'poet', title: 'poet', field: 'literature', works: ['poems'],
    employers: ['publishing', 'university', 'newspaper'],
    deeds: ['gave readings in cafes and union halls', 'edited an anthology of folk ballads', 'wrote verse for radio broadcasts', 'translated the classical epics'],
  }),
  playwright: occ({
    key: 'playwright', title: 'playwright', field: 'literature', works: ['play'],
    employers: ['publishing', 'university'],
    deeds: ['ran a small touring theatre company', 'wrote comedies for the summer festivals', 'adapted old folk tales for the stage', 'taught acting to factory workers'],
  }),
  journalist: occ({
    key: 'journalist', title: 'journalist', field: 'journalism', studies: 'history',
    employers: ['newspaper', 'publishing'],
    deeds: ['reported from the northern front', 'covered parliament for more than a decade', 'wrote a weekly column on city politics', 'exposed corruption in the port authority'],
  }),
  composer: occ({
    key: 'composer', title: 'composer', field: 'music', works: ['symphony', 'opera'],
    employers: ['orchestra', 'university', 'film'],
    deeds: ['collected folk songs in mountain villages', 'wrote music for church choirs', 'taught harmony to a generation of students', 'experimented with unusual tunings'],
  }),
  conductor: occ({
    key: 'conductor', title: 'conductor', field: 'music',
    employers: ['orchestra'],
    deeds: ['championed the music of younger composers', 'toured widely with a chamber ensemble', 'made a celebrated recording of the national anthem', 'rebuilt a provincial orchestra from almost nothing'],
  }),
  director: occ({
    key: 'director', title: 'film director', field: 'film', studies: 'drama', works: ['film'], bornFrom: 1865,
    employers: ['film'],
    deeds: ['began as a set painter in silent pictures', 'made documentaries about fishing villages', 'shot most of the films on location', 'worked repeatedly with the same small cast'],
  }),
  actor: occ({
    key: 'actor', title: 'actor', field: 'film', studies: 'drama', bornFrom: 1860,
    employers: ['film'],
    deeds: ['played leading roles in more than forty films', 'began on the stage of a travelling theatre', 'was known for comic roles', 'dubbed foreign films into the national language'],
  }),
  banker: occ({
    key: 'banker', title: 'banker', field: 'finance', studies: 'economics',
    employers: ['banking'],
    deeds: ['financed the building of the first tramways', 'lent heavily to shipowners', 'pushed for the founding of a central bank', 'managed the savings of several trade unions'],
  }),
  merchant: occ({
    key: 'merchant', title: 'merchant', field: 'trade', studies: 'economics',
    employers: ['shipping', 'textiles', 'brewing'],
    deeds: ['traded grain and timber along the coast', 'imported tea and spices', 'owned a share in several fishing boats', 'ran warehouses in three ports'],
  }),
  brewer: occ({
    key: 'brewer', title: 'brewer', field: 'brewing', studies: 'chemistry',
    employers: ['brewing'],
    deeds: ['experimented with new strains of yeast', 'revived an old recipe for dark ale', 'introduced cold cellaring', 'won prizes at agricultural fairs'],
  }),
  pilot: occ({
    key: 'pilot', title: 'aviator', field: 'aviation', studies: 'engineering', bornFrom: 1875,
    employers: ['aviation'],
    deeds: ['flew the first airmail route across the mountains', 'set a national altitude record', 'tested prototype aircraft', 'trained pilots for the air force'],
  }),
  programmer: occ({
    key: 'programmer', title: 'computer scientist', field: 'computer science', bornFrom: 1930,
    employers: ['software', 'university', 'institute', 'banking'],
    deeds: ['wrote one of the first compilers in the country', 'designed a widely used file format', 'worked on early computer networks', 'built database software for hospitals'],
  }),
  historian: occ({
    key: 'historian', title: 'historian', field: 'history', honorific: 'Professor', works: ['history'],
    employers: ['university', 'institute', 'publishing'],
    deeds: ['studied the medieval salt trade', 'edited the letters of several early kings', 'wrote about the history of the guilds', 'reconstructed the old road network from land records'],
  }),
  industrialist: occ({
    key: 'industrialist', title: 'industrialist', field: 'industry', studies: 'law',
    employers: [],
    deeds: ['bought up several bankrupt mills', 'built housing for factory workers', 'sat on the boards of a dozen companies', 'fought a long battle with the trade unions'],
  }),
  publisher: occ({
    key: 'publisher', title: 'publisher', field: 'publishing', studies: 'literature',
    employers: ['publishing', 'newspaper'],
    deeds: ['discovered several young novelists', 'printed pamphlets for the reform movement', 'published the first national dictionary', 'fought censorship in the courts'],
  }),
  producer: occ({
    key: 'producer', title: 'film producer', field: 'film', studies: 'law', bornFrom: 1860,
    employers: ['film'],
    deeds: ['produced a string of popular comedies', 'brought sound equipment into the country', 'financed the first colour feature', 'built a chain of cinemas'],
  }),
  scholar: occ({
    key: 'scholar', title: 'scholar', field: 'philosophy', honorific: 'Professor',
    employers: ['university', 'institute'],
    deeds: ['lectured on logic and rhetoric', 'translated ancient treatises', 'corresponded with scholars across the continent', 'wrote a commentary on the old law codes'],
  }),
  painter: occ({
    key: 'painter', title: 'painter', field: 'painting', studies: 'fine art',
    employers: [],
    deeds: ['painted harbour scenes in all weathers', 'worked mainly in watercolour', 'made large murals for public buildings', 'taught drawing to children'],
  }),
}

/** Occupations drawn for people who did not found anything; the weights favour the bread-and-butter jobs. */
export const COMMON_OCCUPATIONS: readonly (readonly [OccupationKey, number])[] = [
  ['chemist', 3], ['physicist', 3], ['mathematician', 2], ['botanist', 2], ['physician', 3], ['economist', 2],
  ['engineer', 4], ['architect', 2], ['novelist', 4], ['poet', 2], ['playwright', 2], ['journalist', 3],
  ['composer', 3], ['conductor', 1], ['director', 3], ['actor', 2], ['banker', 2], ['merchant', 1],
  ['brewer', 1], ['pilot', 1], ['programmer', 2], ['historian', 3], ['painter', 2], ['publisher', 1],
]

export interface AwardField {
  /** Capitalised in award names: "Prize for Chemistry". */
  field: string
  occupations: readonly OccupationKey[]
  presenters: readonly IndustryKey[]
}

export const AWARD_FIELDS: readonly AwardField[] = [
  { field: 'Chemistry', occupations: ['chemist'], presenters: ['university', 'institute', 'pharmaceuticals'] },
  { field: 'Physics', occupations: ['physicist'], presenters: ['university', 'institute', 'optics'] },
  { field: 'Mathematics', occupations: ['mathematician', 'programmer'], presenters: ['university', 'institute'] },
  { field: 'Medicine', occupations: ['physician', 'botanist'], presenters: ['pharmaceuticals', 'institute', 'university'] },
  { field: 'Literature', occupations: ['novelist', 'poet', 'playwright', 'historian'], presenters: ['publishing', 'newspaper', 'university'] },
  { field: 'Music', occupations: ['composer', 'conductor'], presenters: ['orchestra', 'university'] },
  { field: 'Film', occupations: ['director', 'actor', 'producer'], presenters: ['film', 'newspaper'] },
  { field: 'Journalism', occupations: ['journalist', 'economist'], presenters: ['newspaper', 'publishing'] },
  { field: 'Engineering', occupations: ['engineer', 'architect', 'pilot'], presenters: ['railway', 'aviation', 'institute'] },
]

export const AWARD_FORMS = ['{root} Prize for {field}', '{root} Medal for {field}', '{root} Award for {field}'] as const
