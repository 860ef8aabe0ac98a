import { describe, expect, it } from 'vitest'
import { singleQuotesAsDouble } from './single-quotes.js'

describe('singleQuotesAsDouble', () => {
  it('reads a quotation in single marks, straight or curly, as one in double marks, offsets kept', () => {
    const text = "The drama 'Peaky Blinders' and ‘The Crown’ aired; 'I love it,' she said."
    const read = singleQuotesAsDouble(text)
    expect(read).toBe('The drama "Peaky Blinders" and "The Crown" aired; "I love it," she said.')
    expect(read).toHaveLength(text.length)
    // An apostrophe inside a word may stand inside the quotation.
    expect(singleQuotesAsDouble("He read 'the Philosopher's Stone' twice.")).toBe(
      'He read "the Philosopher\'s Stone" twice.',
    )
  })

  it('leaves apostrophes alone: in a word, after a plural, before a decade, or unpaired', () => {
    for (const text of [
      "I don't know; it isn't Ireland's.",
      "The Smiths' house and the Joneses' car.",
      "Music of the '90s was loud.",
      "Rock 'n' roll.",
      "She said 'hello\nworld' twice.",
      "An unpaired 'quote here.",
      "Chile 's greatest painter , with Valenzuela Llanos' pupils .",
      `A '${'long '.repeat(40)}quotation' here.`,
    ])
      expect(singleQuotesAsDouble(text)).toBe(text)
  })
})
