/**
 * Lucene's default English stop set (`EnglishAnalyzer.ENGLISH_STOP_WORDS_SET`), the one Anserini and
 * Pyserini use for their BEIR BM25 baselines, so our BM25 numbers are comparable to theirs.
 */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'but',
  'by',
  'for',
  'if',
  'in',
  'into',
  'is',
  'it',
  'no',
  'not',
  'of',
  'on',
  'or',
  'such',
  'that',
  'the',
  'their',
  'then',
  'there',
  'these',
  'they',
  'this',
  'to',
  'was',
  'will',
  'with',
])

/**
 * NLTK's English stop list (`nltk_data/corpora/stopwords/english`, 179 entries; Bird, Klein & Loper,
 * "Natural Language Processing with Python", 2009), a superset of Lucene's set above, with apostrophe
 * forms left out (`tokenize` already cuts `didn't` to `didn`, which is listed) and with its one-letter
 * and contraction-tail entries (s, t, d, ll, m, o, re, ve, y, ma) left out too: the tokenizer never
 * produces them from contractions, so as tokens they are content (`vitamin d`, `t cells`). The BM25
 * indexes use it (see `analyzeBm25`).
 */
export const NLTK_ENGLISH_STOPWORDS: ReadonlySet<string> = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she ' +
    'her hers herself it its itself they them their theirs themselves what which who whom this that ' +
    'these those am is are was were be been being have has had having do does did doing a an the and ' +
    'but if or because as until while of at by for with about against between into through during ' +
    'before after above below to from up down in out on off over under again further then once here ' +
    'there when where why how all any both each few more most other some such no nor not only own ' +
    'same so than too very can will just don should now ain aren couldn didn doesn hadn hasn haven ' +
    'isn mightn mustn needn shan shouldn wasn weren won wouldn'
  ).split(' '),
)
