/**
 * Quotations in single marks read as if in double ones, character for character (offsets kept).
 *
 * British usage quotes in single marks what American usage quotes in double ones (New Hart's Rules, Oxford,
 * 2nd ed., 9.2; the Guardian style guide, "quotation marks"): `the drama 'Peaky Blinders' starred Cillian
 * Murphy`, `we watched ‘The Crown’`. The local extractor reads quoted titles in double marks
 * (`quotedTitles`) and compromise tags around them as it should; around single marks it took the closing
 * one for a plural possessive ("Blinders'"), lost the verb after it, and made the concepts "Name" and
 * "Wind'" of 'The Name of the Wind'.
 *
 * The single mark is also the apostrophe, so a pair is a quotation only where its opening mark begins a
 * word and its closing mark ends one, within one line, around 2 to 160 characters (as `quotedTitles` reads
 * double ones): not "don't", "Ireland's", "the Smiths' house", "'90s was", "rock 'n' roll", nor a
 * clitic written apart as tokenised text has it ("Chile 's greatest painters"). An apostrophe inside a
 * word may stand inside the quotation ('the Philosopher's Stone').
 */
const SINGLE_QUOTED =
  /(?<![\p{L}\p{N}'‘’"“”])['‘](?!(?:s|d|t|m|ll|re|ve)(?![\p{L}\p{N}]))([\p{L}\p{N}](?:[^'‘’"“”\n]|['’](?=\p{L})){0,158}?[^\s'‘’])['’](?![\p{L}\p{N}'‘’])/gu

export function singleQuotesAsDouble(text: string): string {
  if (!/['‘]/.test(text)) return text
  return text.replace(SINGLE_QUOTED, (_all, inner: string) => `"${inner}"`)
}
