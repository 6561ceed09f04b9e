/**
 * Nationality, ethnic, religious and political group adjectives (NORP). A mention that is one of
 * these is never a LOOKUP target: "French" names a group of people, not something to look up.
 * Written for this project; plurals are derived where English derives them regularly.
 */

const NATIONAL = `
  afghan albanian algerian american andorran angolan antiguan argentine argentinian armenian australian
  austrian azerbaijani azeri bahamian bahraini bangladeshi barbadian belarusian belgian belizean beninese
  bhutanese bolivian bosnian botswanan brazilian british bruneian bulgarian burkinabe burmese burundian
  cambodian cameroonian canadian cape-verdean chadian chilean chinese colombian comorian congolese
  costa-rican croatian cuban cypriot czech danish djiboutian dominican dutch ecuadorian egyptian
  emirati english equatoguinean eritrean estonian eswatini ethiopian fijian filipino finnish french
  gabonese gambian georgian german ghanaian greek grenadian guatemalan guinean guyanese haitian
  honduran hungarian icelandic indian indonesian iranian iraqi irish israeli italian ivorian jamaican
  japanese jordanian kazakh kazakhstani kenyan kiribati korean kosovar kuwaiti kyrgyz lao laotian latvian
  lebanese liberian libyan liechtensteiner lithuanian luxembourgish macedonian malagasy malawian
  malaysian maldivian malian maltese marshallese mauritanian mauritian mexican micronesian moldovan
  monegasque mongolian montenegrin moroccan mozambican namibian nauruan nepalese nepali new-zealand
  nicaraguan nigerien nigerian norwegian omani pakistani palauan palestinian panamanian papuan
  paraguayan persian peruvian polish portuguese qatari romanian russian rwandan salvadoran samoan
  saudi scottish senegalese serbian seychellois sierra-leonean singaporean slovak slovakian slovenian
  somali south-african spanish sri-lankan sudanese surinamese swazi swedish swiss syrian taiwanese
  tajik tanzanian thai togolese tongan trinidadian tunisian turkish turkmen tuvaluan ugandan ukrainian
  uruguayan uzbek vanuatuan venezuelan vietnamese welsh yemeni zambian zimbabwean
  soviet yugoslav czechoslovak prussian bavarian ottoman byzantine roman greek-cypriot flemish walloon
  catalan basque galician corsican sicilian sardinian breton cornish northern-irish ulster
  texan californian floridian new-yorker parisian londoner berliner muscovite venetian florentine
  european asian african arab arabian latin-american north-american south-american caribbean
  scandinavian nordic baltic balkan slavic slav anglo-saxon celtic gaelic germanic teutonic nordic
  mediterranean middle-eastern oriental western eastern
`

const ETHNIC = `
  kurdish kurd berber amazigh zulu xhosa maori aboriginal indigenous inuit cherokee navajo sioux apache
  hispanic latino latina chicano tamil sinhalese pashtun punjabi bengali gujarati hausa yoruba igbo
  fulani tuareg bedouin romani roma gypsy uyghur tibetan han manchu mongol tatar cossack chechen
  hmong khmer malay javanese ainu sami lapp frisian norman saxon viking norse celt aztec mayan inca
`

const RELIGIOUS_POLITICAL = `
  christian catholic roman-catholic protestant anglican lutheran calvinist methodist baptist
  presbyterian mormon evangelical orthodox muslim moslem islamic sunni shia shiite jewish jew hindu
  buddhist sikh jain zoroastrian pagan atheist agnostic
  democrat democratic republican communist socialist conservative liberal tory whig nazi
  fascist marxist leninist maoist bolshevik menshevik jacobin royalist unionist nationalist
`

/** Irregular plural or people-noun forms that do not follow the rules in `variants`. */
const IRREGULAR = `
  englishmen englishman frenchmen frenchman dutchmen dutchman irishmen irishman scotsmen scotsman
  welshmen welshman chinamen scots brits swedes danes finns poles turks spaniards kurds jews arabs
  slavs celts gauls saxons normans vikings aztecs mayas incas mongols tatars filipinos
  latinos latinas hispanics
`

function variants(word: string): string[] {
  const out = [word, word.replace(/-/g, ' ')]
  // Adjectives in -an/-ian/-i/-er and -ist/-ic nouns pluralise with -s ("Nigerians", "Democrats").
  if (/(an|i|er|ist|at|ic|ite|ant|ic|ar|ek|ot|ik|ol|ch|zh|ur)$/.test(word)) out.push(`${word}s`, `${word.replace(/-/g, ' ')}s`)
  return out
}

const ALL: ReadonlySet<string> = new Set(
  [NATIONAL, ETHNIC, RELIGIOUS_POLITICAL]
    .flatMap((block) => block.trim().split(/\s+/))
    .flatMap(variants)
    .concat(IRREGULAR.trim().split(/\s+/)),
)

/** Common adjectives that name a group only when capitalised ("liberal" vs "Liberal"). */
const CASE_SENSITIVE: ReadonlySet<string> = new Set(['western', 'eastern', 'oriental', 'liberal', 'liberals', 'conservative', 'conservatives', 'indigenous', 'democratic', 'republican', 'orthodox', 'evangelical'])

/**
 * True when `surface` (any case, hyphens or spaces) is a nationality, ethnic, religious or
 * political group word such as "French", "Nigerians", "Sri Lankan" or "Protestant".
 */
export function isDemonym(surface: string): boolean {
  const trimmed = surface.trim().replace(/\s+/g, ' ')
  const lower = trimmed.toLowerCase()
  if (!ALL.has(lower) && !ALL.has(lower.replace(/-/g, ' '))) {
    // Compounds whose every part is a group word: "English-American", "Franco-Prussian".
    const parts = lower.split(/[-\s]+/)
    return parts.length > 1 && parts.every((p) => ALL.has(p))
  }
  // "liberal" in running text is an ordinary adjective; only the capitalised form names a group.
  return !CASE_SENSITIVE.has(lower) || /^\p{Lu}/u.test(trimmed)
}
