/**
 * Closed word lists used by the name chunker, the typer and the LOOKUP filter.
 * All entries are lower case and without trailing periods; callers normalise before lookup.
 */

const set = (words: string): ReadonlySet<string> => new Set(words.trim().split(/\s+/))

/** Titles that precede a person's name and are not part of it. */
export const HONORIFICS = set(`
  mr mrs ms miss mx dr prof professor sir dame lord lady madam madame mme mlle monsieur herr frau
  rev reverend fr father sister brother rabbi imam sheikh pastor bishop archbishop cardinal pope
  president vice-president senator sen rep representative governor gov mayor chancellor minister premier
  judge justice king queen prince princess duke duchess earl count countess baron baroness emperor empress
  general gen colonel col major maj captain capt lieutenant lt sergeant sgt admiral commander cmdr
  hon honourable honorable
`)

/** Titles that are also ordinary words at the head of organisation names ("General Electric"). */
export const AMBIGUOUS_TITLES = set(`general major king queen prince duke lord count father brother sister justice judge premier cardinal`)

/** Final words of organisation names. */
export const ORG_HEADS = set(`
  inc incorporated corp corporation co company companies ltd limited llc plc gmbh ag sa nv llp lp
  group holdings bank university college institute institution school academy society association
  federation union party council committee commission agency ministry department board foundation trust
  museum library laboratory laboratories lab labs records studios studio pictures entertainment media
  network networks broadcasting communications press times post journal gazette herald tribune
  club fc team orchestra band choir ensemble church senate parliament congress assembly court army navy
  corps force police service services airlines airways railways railway motors systems technologies
  technology industries enterprises partners energy foods pharmaceuticals software games publishing
  organisation organization office bureau authority league conference fund reserve exchange
  brothers bros & sons
`)

/** Words that open an organisation name before "of" ("University of Edinburgh"). */
export const ORG_OPENERS = set(`
  university college institute academy bank ministry department school society museum council
  board bureau office church order house
`)

export const LOC_HEADS = set(`
  river sea ocean lake mountains mountain hills hill valley desert island islands isle isles bay gulf strait
  straits channel peninsula coast forest falls canyon glacier basin delta range plateau highlands
  lowlands plain plains reef archipelago volcano cape rainforest
`)
export const LOC_OPENERS = set(`mount mt lake cape isle gulf bay river`)

export const FAC_HEADS = set(`
  bridge tower towers airport stadium arena hall palace castle cathedral abbey temple mosque synagogue
  station building centre center square street road avenue boulevard highway motorway tunnel dam canal
  theatre theater hospital prison fort lighthouse monument memorial gate wall opera
`)

export const EVENT_HEADS = set(`
  war wars revolution battle olympics games championship championships cup festival biennale expo
  summit crisis massacre election rebellion uprising siege campaign crusade tournament open marathon
  prix grand
`)
export const EVENT_OPENERS = set(`battle siege treaty`)

export const LAW_HEADS = set(`act treaty constitution charter accord accords convention amendment code`)
export const LANGUAGE_HEADS = set(`language languages dialect dialects`)

/** Lower-case words that may sit inside a proper-noun chunk between capitalised words. */
export const NAME_CONNECTORS = set(`of of-the the de du da das do dos des di del della van von der den la le y bin ibn al el upon on for`)

/** Words that can never be a whole entity (and, with the honorifics, a whole LOOKUP target). */
export const STOPWORDS = set(`
  a an the and or but nor of in on at to for from by with without about above below over under into onto
  upon as is are was were be been being am do does did have has had this that these those it its he she
  they them his her their our we you your i me my mine us him who whom whose which what when where why how
  not no yes all any some each every both either neither one other such than then there here so very
  also only just more most many much few less least own same too can could would should will shall may
  might must if else while because since until although though after before during between among
  through per via etc ie eg vs
`)

export const MONTHS = set(`january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec`)
export const WEEKDAYS = set(`monday tuesday wednesday thursday friday saturday sunday`)

/** Nouns that, just before a capitalised chunk, say it is a person ("the economist Amara Okafor"). */
export const PERSON_CUES = set(`
  actor actress singer songwriter rapper musician composer conductor pianist guitarist drummer painter
  sculptor artist photographer poet novelist writer author playwright journalist editor director producer
  filmmaker economist physicist chemist biologist mathematician scientist engineer architect inventor
  philosopher historian linguist lawyer judge politician diplomat ambassador senator minister striker
  player footballer cricketer athlete boxer coach manager explorer navigator sailor pilot astronaut
  soldier officer founder businessman businesswoman entrepreneur banker surgeon physician doctor nurse
  teacher lecturer professor student priest bishop monk nun saint king queen emperor husband wife son
  daughter father mother brother sister uncle aunt cousin widow
`)

/** Verbs and verb phrases that, right after a chunk, say it is a person. */
export const PERSON_VERB_CUES = set(`said says told wrote married died was-born is-born argued believed recalled`)

/** Prepositions after which a single unknown capitalised word is most often a place. */
export const PLACE_PREPOSITIONS = set(`in near at from to outside across toward towards`)

export const CURRENCY_WORDS = set(`
  dollar dollars cent cents euro euros pound pounds sterling penny pence yen yuan renminbi rupee rupees
  franc francs mark marks lira lire peso pesos rouble roubles ruble rubles krona kronor krone kroner
  won rand real reais shilling shillings guilder guilders dinar dinars dirham dirhams riyal riyals
  baht ringgit zloty forint koruna bitcoin bitcoins usd eur gbp jpy cny inr chf
`)

export const UNIT_WORDS = set(`
  metre metres meter meters m km kilometre kilometres kilometer kilometers cm centimetre centimetres
  centimeter centimeters mm millimetre millimetres millimeter millimeters mile miles yard yards foot feet
  ft inch inches acre acres hectare hectares ha gram grams g kg kilogram kilograms kilo kilos tonne tonnes
  ton tons lb lbs pound-weight ounce ounces oz litre litres liter liters ml gallon gallons barrel barrels
  kelvin celsius fahrenheit degrees degree watt watts kilowatt kilowatts megawatt megawatts gigawatt
  gigawatts kw mw gw kwh mwh volt volts amp amps horsepower hp mph kph knot knots calorie calories joule
  joules byte bytes kilobyte kilobytes megabyte megabytes gigabyte gigabytes terabyte terabytes
  square cubic sq cu nautical light-years light-year parsec parsecs
`)

/** Dimension words that turn a cardinal + unit into a quantity only when they follow a unit. */
export const UNIT_MODIFIERS = set(`square cubic sq cu nautical`)

/** Time words after an ordinal that make a date ("the first quarter", "19th century"). */
export const DATE_NOUNS_AFTER_ORDINAL = set(`century centuries quarter half millennium decade week month year season`)

/** Language names that are not also demonyms (those stay NORP: "French", "English"). */
export const LANGUAGES = set(`
  arabic latin sanskrit hebrew aramaic akkadian sumerian coptic yiddish esperanto swahili hindi urdu
  mandarin cantonese malayalam telugu kannada marathi assamese sinhala odia oriya pali prakrit tagalog
  farsi pashto quechua nahuatl guarani occitan provencal afrikaans hausa amharic tigrinya somali
  tibetan burmese lao khmer mongolian uzbek kazakh kyrgyz turkmen georgian armenian albanian basque
  catalan galician breton cornish manx gaelic welsh frisian flemish luxembourgish maltese icelandic
  faroese estonian latvian lithuanian finnish hungarian romani ladino creole
`)
