import winkNLP from 'wink-nlp'
import model from 'wink-eng-lite-web-model'

/** One entity wink-nlp's recogniser finds: its text and its type (`DATE`, `CARDINAL`, `MONEY`, ...). */
export interface WinkEntity {
  value: string
  type: string
}

// Only the entity recogniser: wink's other annotations (sentence boundaries, negation, sentiment,
// part of speech) are not read here, and NER does not depend on them (wink-nlp src/wink-nlp.js).
const wink = winkNLP(model, ['ner'])
const its = wink.its

/** Runs of digits seeded into wink's token cache (`seedNumbers`); cleared when large, which is harmless. */
const seeded = new Set<string>()
const MAX_SEEDED = 50_000
const DIGITS = /\d+/g

/**
 * wink-nlp's entities of one sentence, the same whatever the process read before.
 *
 * wink-nlp 2.4 keeps every token it meets in a cache shared by all its documents, with the category
 * (word, number, ...) of the token's first sighting (src/cache.js, `add`: a text already cached keeps
 * its entry). Its tokenizer splits a word around its periods and gives each piece the category `word`
 * (src/recursive-tokenizer.js, `pushWordToken`), so "c.1796" caches "1796" as a word, and from then on
 * every "1796" of every text is one: "from 1794 to 1796" was a `DURATION` in a fresh process and only
 * "1794" after a text with "c.1796" (Re-DocRED dev: one document's date node came and went with the
 * order of the documents before it, in a worker that had read other brains' texts). Each run of digits
 * a sentence holds is therefore read alone first, the first time it is met, so that it is cached as the
 * number it is before any split can cache it otherwise.
 */
export function winkEntities(sentence: string): WinkEntity[] {
  seedNumbers(sentence)
  const found = wink.readDoc(sentence).entities().out(its.detail) as unknown as WinkEntity[]
  for (const e of found) if (e.type === 'URL') e.value = withoutTrailingPunctuation(e.value)
  return found
}

/**
 * A URL without the punctuation of the sentence around it: wink-nlp's URL runs to the next space, so
 * "(MIT; https://github.com/faker-js/faker), every" gave the URL "https://github.com/faker-js/faker),".
 * GitHub Flavored Markdown's rule for the same problem (spec 0.29, "Autolinks (extension)", extended
 * autolink path validation): trailing `?`, `!`, `.`, `,`, `:`, `*`, `_`, `~` (and here quotes) are not
 * part of it, nor is a trailing `)` the URL does not open ("https://en.wikipedia.org/wiki/Rome_(city)"
 * keeps its own).
 */
function withoutTrailingPunctuation(url: string): string {
  let end = url.length
  for (;;) {
    const last = url[end - 1]
    if (last !== undefined && TRAILING.includes(last)) end--
    else if (last === ')' && count(url, '(', end) < count(url, ')', end)) end--
    else return url.slice(0, end)
  }
}
const TRAILING = '?!.,:;*_~\'"”’'
const count = (text: string, char: string, end: number) => {
  let n = 0
  for (let i = 0; i < end; i++) if (text[i] === char) n++
  return n
}

function seedNumbers(sentence: string): void {
  for (const [digits] of sentence.matchAll(DIGITS)) {
    if (seeded.has(digits)) continue
    if (seeded.size >= MAX_SEEDED) seeded.clear()
    seeded.add(digits)
    wink.readDoc(digits)
  }
}
