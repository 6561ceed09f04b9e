/**
 * English function words and question words dropped from free-text queries. OR-combined BM25 gives
 * them little weight anyway, but each one still costs a posting-list scan and pulls in noise chunks
 * when few content terms match.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or nor but not no yes if then than so as of at by for from in into on onto to with without ' +
    'about above after against along among around before behind below beneath beside between beyond during ' +
    'except inside near off out outside over since through throughout till toward towards under until up upon ' +
    'via within is am are was were be been being do does did doing done has have had having ' +
    'will would shall should can could may might must ought ' +
    'i me my mine myself we us our ours you your yours he him his she her hers it its they them their theirs ' +
    'this that these those there here what which who whom whose when where why how ' +
    'all any both each either neither few more most other some such only own same too very just also ' +
    'again ever once s t d ll m re ve'
  ).split(' '),
)
