import { describe, expect, it } from 'vitest'
import {
  continuesList,
  definedKind,
  definedTitle,
  kindBefore,
  laterTitleSpans,
} from './definition-cues.js'

describe('definition cues', () => {
  it('reads the kind a copula or an apposition gives a name', () => {
    expect(definedKind(' is a Turkish weapons manufacturer.')).toBe('ORGANIZATION')
    expect(definedKind(', an English football club based in Liverpool, ')).toBe('ORGANIZATION')
    expect(definedKind(' (Turkish: Roket Sanayii) is a rocket company in Ankara.')).toBe(
      'ORGANIZATION',
    )
    expect(definedKind(' is an unincorporated community in Jackson County.')).toBe('PLACE')
    expect(definedKind(', the capital of France.')).toBe('PLACE')
    expect(definedKind(' was an American politician who served ...')).toBe('PERSON')
    expect(definedKind(' is one of the largest banks in Turkey.')).toBe('ORGANIZATION')
    expect(definedKind(' is an American rock band best known for ...')).toBe('ORGANIZATION')
  })

  it('takes the head of the phrase, not a word before it', () => {
    // "band" modifies "member"; the head names no kind.
    expect(definedKind(' was a band member until 2004.')).toBeNull()
    expect(definedKind(', the band’s drummer, left.')).toBe('PERSON')
    // A collection of something else is not that kind.
    expect(definedKind(' is a group of islands in the Baltic.')).toBeNull()
  })

  it('needs a copula or a comma right after the name, then a determiner', () => {
    expect(definedKind(' signed a record deal.')).toBeNull()
    expect(definedKind(' is famous for its company.')).toBeNull()
    expect(definedKind(', London and Rome are cities.')).toBeNull()
    expect(definedKind(' and a friend founded a company.')).toBeNull()
    expect(definedKind('')).toBeNull()
  })

  it('stops at a long phrase: no head found within a few words', () => {
    expect(
      definedKind(' is a very large and well known and much loved and rather old city.'),
    ).toBeNull()
  })

  it('reads the kind a noun right before a name gives it, or one opening a list', () => {
    expect(kindBefore('It was released by the record label ')).toBe('ORGANIZATION')
    expect(kindBefore('the merger of developer Square and publisher ')).toBe('ORGANIZATION')
    expect(kindBefore('It was co-written by British singer ')).toBe('PERSON')
    expect(kindBefore('hard rock bands such as ')).toBe('ORGANIZATION')
    expect(kindBefore('Bands such as ')).toBe('ORGANIZATION')
    expect(kindBefore('He met Companies such as ')).toBeNull()
    expect(kindBefore('new tech companies, including ')).toBe('ORGANIZATION')
    // A capitalised word is a name, not a kind; a kind noun farther back types nothing.
    expect(kindBefore('He joined Band ')).toBeNull()
    expect(kindBefore('the band played with ')).toBeNull()
    expect(kindBefore('')).toBeNull()
  })

  it('keeps two names in one list across a comma, "and" or "or" only', () => {
    expect(continuesList(', ')).toBe(true)
    expect(continuesList(' and ')).toBe(true)
    expect(continuesList(', and ')).toBe(true)
    expect(continuesList(' or ')).toBe(true)
    expect(continuesList(' played with ')).toBe(false)
    expect(continuesList('. ')).toBe(false)
  })

  it("finds a defined title's later mentions where the tagger cut it again", () => {
    const sentence = 'Jackson adapted the Lord of the Rings, not Lord of the Flies.'
    const at = (name: string) => {
      const start = sentence.indexOf(name)
      return { name, start, end: start + name.length }
    }
    expect(laterTitleSpans(sentence, 'Lord of the Rings', [at('Lord'), at('Rings')])).toEqual([
      { start: 20, end: 37 },
    ])
    // Already one name, nothing the tagger found, a mention crossing its edge, another case: none.
    expect(laterTitleSpans(sentence, 'Lord of the Rings', [at('Lord of the Rings')])).toEqual([])
    expect(laterTitleSpans(sentence, 'Lord of the Rings', [])).toEqual([])
    expect(laterTitleSpans(sentence, 'Lord of the Rings', [at('Rings, not')])).toEqual([])
    expect(laterTitleSpans(sentence, 'lord of the rings', [at('Lord')])).toEqual([])
    // Whole words only.
    const glued = 'MiniLord of the Rings'
    const rings = { name: 'Rings', start: glued.indexOf('Rings'), end: glued.length }
    expect(laterTitleSpans(glued, 'Lord of the Rings', [rings])).toEqual([])
    expect(
      laterTitleSpans('Lord of the Rings', 'Lord of the Rings', [{ ...rings, start: 12, end: 17 }]),
    ).toHaveLength(1)
  })

  it('reads a title a sentence opens by defining as one name where the tagger cut it at small words', () => {
    const piece = (sentence: string, name: string, label = 'CONCEPT') => {
      const start = sentence.indexOf(name)
      return { name, label, start, end: start + name.length }
    }
    const title = (sentence: string, ...pieces: [string, string?][]) =>
      definedTitle(
        sentence,
        pieces.map(([name, label]) => piece(sentence, name, label)),
      )?.name ?? null
    const rage = 'Rage Against the Machine is an American rap metal band.'
    expect(title(rage, ['Against'], ['Machine', 'ORGANIZATION'])).toBe('Rage Against the Machine')
    expect(definedTitle(rage, [piece(rage, 'Against')])).toEqual({
      name: 'Rage Against the Machine',
      start: 0,
      end: 24,
    })
    const lord = 'The Lord of the Rings is an epic novel.'
    expect(title(lord, ['Lord'], ['Rings'])).toBe('Lord of the Rings')
    expect(title('Tears for Fears are an English band.', ['Tears'], ['Fears'])).toBe(
      'Tears for Fears',
    )
    // A person or a place inside, a name of two words, a lower-case word: no title.
    const white = 'Danny White of the Dallas Cowboys was a quarterback.'
    expect(title(white, ['Danny White', 'PERSON'], ['Dallas Cowboys', 'ORGANIZATION'])).toBeNull()
    const lands = 'France and Germany are the largest economies.'
    expect(title(lands, ['France', 'PLACE'], ['Germany', 'PLACE'])).toBeNull()
    expect(title('Most of the players were a team.', ['players'])).toBeNull()
    expect(title('Sales of cars were a disappointment.', ['Sales'])).toBeNull()
    // No small word (the tagger's own name stands), no definition, nothing the tagger found: no title.
    expect(title('Hunger Games is a series.', ['Hunger Games'])).toBeNull()
    expect(title('Rage Against the Machine played in Paris.', ['Against'])).toBeNull()
    expect(title(rage)).toBeNull()
  })
})
