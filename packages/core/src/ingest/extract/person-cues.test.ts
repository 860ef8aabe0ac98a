import { describe, expect, it } from 'vitest'
import { personByCue } from './person-cues.js'

const none = new Set<string>()
const noPlace = () => false

describe('person cues', () => {
  it('finds a person from a title, a life span or a role before the name', () => {
    expect(personByCue('General Pervez Musharraf', 'held by ', '.', none, noPlace)).toBe(
      'Pervez Musharraf',
    )
    expect(personByCue('Randy Bachman', '', ' (born 27 September 1943) is', none, noPlace)).toBe(
      'Randy Bachman',
    )
    expect(
      personByCue('Maurice Sendak', '', ' (June 10, 1928 – May 8, 2012) was', none, noPlace),
    ).toBe('Maurice Sendak')
    expect(personByCue('Tim Commerford', 'with bassist ', '.', none, noPlace)).toBe(
      'Tim Commerford',
    )
  })

  it('finds a person from a given name the tagger knows or from initials, never in a possessive', () => {
    expect(personByCue('Wayne Gretzky', 'played with ', '.', none, noPlace, true)).toBe(
      'Wayne Gretzky',
    )
    expect(personByCue('Wayne Gretzky', 'played with ', '.', none, noPlace)).toBeNull()
    expect(personByCue('N. C. Wyeth', 'known as ', ',', none, noPlace)).toBe('N. C. Wyeth')
    expect(personByCue('J. R. R. Tolkien', 'in ', '.', none, noPlace)).toBe('J. R. R. Tolkien')
    // Four words are a person's only when three of them are initials.
    expect(personByCue('Anna Maria Luisa Bauer', 'in ', '.', none, noPlace)).toBeNull()
    expect(
      personByCue("William Shakespeare's Pericles", 'in ', '.', none, noPlace, true),
    ).toBeNull()
  })

  it('finds a person from a verb of speech or a kin noun of theirs after the name', () => {
    expect(
      personByCue('Eamon Gilmore', 'In an interview, ', ' said it was fine.', none, noPlace),
    ).toBe('Eamon Gilmore')
    expect(personByCue('Arne Næss', 'the death of ', "'s father in 2004.", none, noPlace)).toBe(
      'Arne Næss',
    )
    // A founder too: "Masaru Ibuka founded Sony".
    expect(personByCue('Masaru Ibuka', '', ' founded Sony in 1946.', none, noPlace)).toBe(
      'Masaru Ibuka',
    )
    // A kind word still rules the name out, and a possessive of anything else is no cue.
    expect(personByCue('Shed Media', 'In March, ', ' said it had grown.', none, noPlace)).toBeNull()
    expect(personByCue('Shed Media', '', ' founded a label.', none, noPlace)).toBeNull()
    expect(personByCue('Eamon Gilmore', 'the death of ', "'s film.", none, noPlace)).toBeNull()
  })

  it('finds a person from a personal title before one unknown word, not from a rank or a place', () => {
    expect(personByCue('Cardinal Mazarin', '', ' represented France.', none, noPlace)).toBe(
      'Mazarin',
    )
    expect(personByCue('Mr Darcy', '', ' married Elizabeth.', none, noPlace)).toBe('Darcy')
    // A rank opens other names ("General Motors"); a place of the text after a title is no one.
    expect(personByCue('General Motors', '', ' built it.', none, noPlace)).toBeNull()
    expect(personByCue('Dr Sydney', '', ' spoke.', none, (n) => n === 'Sydney')).toBeNull()
  })

  it("finds a passive's agent in one listed given name the lexicon does not know", () => {
    expect(personByCue('Priya', 'The bug was fixed by ', '.', none, noPlace)).toBe('Priya')
    expect(personByCue('Priya', 'The song was written by ', '.', none, noPlace)).toBe('Priya')
    // Not without the passive, and not a word the lexicon knows or a place of the text.
    expect(personByCue('Priya', 'The bug was near ', '.', none, noPlace)).toBeNull()
    expect(personByCue('Priya', 'The bug was fixed by ', '.', none, () => true)).toBeNull()
    expect(personByCue('Mercedes', 'The car was built by ', '.', none, noPlace)).toBeNull()
    expect(personByCue('Acme', 'The bug was fixed by ', '.', none, noPlace)).toBeNull()
  })

  it('finds each person of a list after a plural role', () => {
    expect(personByCue('Raf Vallone', 'the daughter of actors ', '.', none, noPlace)).toBe(
      'Raf Vallone',
    )
    expect(
      personByCue('Elena Varzi', 'the daughter of actors Raf Vallone and ', '.', none, noPlace),
    ).toBe('Elena Varzi')
    expect(personByCue('Irán Eory', 'with actors Ricardo Blume , ', ',', none, noPlace)).toBe(
      'Irán Eory',
    )
    // A list after no role, or a role word that is not plural before a list, says nothing.
    expect(personByCue('Elena Varzi', 'the films Raf Vallone and ', '.', none, noPlace)).toBeNull()
    expect(personByCue('Elena Varzi', 'actor Raf Vallone and ', '.', none, noPlace)).toBeNull()
  })

  it('finds a person whose surname stands alone elsewhere in the text', () => {
    const alone = new Set(['kiarostami'])
    expect(personByCue('Abbas Kiarostami', 'directed by ', '.', alone, noPlace)).toBe(
      'Abbas Kiarostami',
    )
    expect(personByCue('Abbas Kiarostami', 'met with ', '.', none, noPlace)).toBeNull()
  })

  it("finds a work's maker, a kin noun's complement and an office holder", () => {
    expect(personByCue('Abbas Kiarostami', 'a film directed by ', '.', none, noPlace)).toBe(
      'Abbas Kiarostami',
    )
    expect(personByCue('Raja Ram', 'the son of ', '.', none, noPlace)).toBe('Raja Ram')
    // A founder too ("founded by Masaru Ibuka"), but not a body named with its article.
    expect(personByCue('Masaru Ibuka', 'It was co-founded by ', '.', none, noPlace)).toBe(
      'Masaru Ibuka',
    )
    expect(personByCue('The Jesuits', 'founded by ', '.', none, noPlace)).toBeNull()
    // Offices are roles too.
    expect(personByCue('Pravin Gordhan', 'finance minister ', '.', none, noPlace)).toBe(
      'Pravin Gordhan',
    )
    // "produced by" is not listed (studios produce too); a name opening with an article is no person.
    expect(personByCue('Harry Jones', 'produced by ', '.', none, noPlace)).toBeNull()
    expect(personByCue('The Beatles', 'written by ', '.', none, noPlace)).toBeNull()
  })

  it('leaves kinds of things, places and single words alone', () => {
    const alone = new Set(['records', 'oilers', 'arenas'])
    expect(personByCue('Polar Records', '', ' (born 1970 –', alone, noPlace)).toBeNull()
    expect(personByCue('Punta Arenas', 'in ', '.', alone, (w) => w === 'Punta')).toBeNull()
    expect(personByCue('Kiarostami', 'singer ', '.', none, noPlace)).toBeNull()
    expect(personByCue('the Oilers team', '', '.', alone, noPlace)).toBeNull()
  })
})
