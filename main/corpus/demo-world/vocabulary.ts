/**
 * Sound banks for coining names. Every proper name in the demo world is assembled from these pieces,
 * so titles cannot collide with real encyclopedia articles, and a name's ending hints at its kind
 * (places end in -holm or -ara, surnames in -ander or -stad) the way real names do.
 */

/** Repeated entries are deliberate: they make the plain sounds commoner than the clusters. */
export const ONSETS = [
  'b', 'br', 'c', 'd', 'dr', 'f', 'g', 'h', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'z',
  'b', 'd', 'g', 'k', 'l', 'm', 'n', 'r', 's', 't', 'v', 'sk', 'st', 'tr', 'th', 'ch', 'sh', 'kr', 'w', 'j',
] as const

export const VOWELS = ['a', 'e', 'i', 'o', 'u', 'a', 'e', 'i', 'o', 'a', 'e', 'o', 'ai', 'ei', 'ou'] as const

/** Codas for the syllable before a vowel-initial ending; empty entries keep most syllables open. */
export const CODAS = ['', '', '', 'n', 'r', 'l', 's', 'm', 'th', 'nd', 'rk', 'st', 'v', 'sk', 'll', 'rn', 'x'] as const
/** Codas inside a word, where a heavy cluster would meet the next onset. */
export const INNER_CODAS = ['', '', '', '', 'n', 'r', 'l', 's', 'm'] as const

export const SURNAME_ENDINGS = [
  'ov', 'en', 'ander', 'ell', 'wick', 'stad', 'ar', 'ine', 'ford', 'holt', 'mere', 'berg', 'ain', 'ow',
  'is', 'ac', 'ent', 'elle', 'ick', 'ley', 'son', 'ard', 'aux', 'enko', 'ez', 'ori', 'ane', 'ust',
] as const

export const CITY_ENDINGS = [
  'holm', 'ara', 'ven', 'grad', 'ora', 'esk', 'wyn', 'ach', 'ice', 'ano', 'burg', 'ay', 'ir', 'on', 'ess',
  'port', 'vik', 'ona', 'eth', 'ilde', 'more', 'ance', 'ova', 'ium',
] as const

/** Country endings paired with the ending of the nationality adjective (Quessaria -> Quessarian). */
export const COUNTRY_ENDINGS = [
  ['ia', 'ian'],
  ['ora', 'oran'],
  ['esh', 'eshi'],
  ['and', 'andish'],
  ['ovia', 'ovian'],
  ['ene', 'enese'],
  ['ar', 'ari'],
  ['ay', 'ayan'],
  ['eth', 'ethian'],
  ['ond', 'ondese'],
  ['ica', 'ican'],
  ['ul', 'uli'],
] as const

export const RIVER_ENDINGS = ['el', 'a', 'ine', 'ow', 'er', 'is', 'en', 'ava', 'ent', 'uy'] as const

export const LANDFORM_ENDINGS = ['ak', 'orn', 'ilde', 'emar', 'ust', 'ova', 'eth'] as const

export const GIVEN_FEMALE_ENDINGS = ['a', 'ia', 'ine', 'elle', 'ena', 'is', 'ette', 'wyn', 'ra', 'ith', 'ona', 'ey'] as const
export const GIVEN_MALE_ENDINGS = ['o', 'an', 'er', 'us', 'ik', 'ard', 'en', 'ar', 'ius', 'orn', 'el', 'ace'] as const

/** Letter runs that read badly or could spell something unfortunate; coined words containing them are redrawn. */
export const BLOCKED_FRAGMENTS = ['nig', 'fag', 'fuk', 'fuc', 'cum', 'shit', 'sex', 'kkk', 'nazi', 'rape', 'slut', 'cunt', 'dick', 'piss', 'tit', 'jew', 'gay', 'wank', 'ass', 'aaa', 'eee', 'iii', 'ooo', 'uuu', 'yy', 'ww', 'jj', 'qq', 'xx', 'hh', 'vv'] as const

export const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October',
  'November', 'December',
] as const
