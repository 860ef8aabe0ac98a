import { describe, expect, it } from 'vitest'
import { NICKNAME, OrganizationNames, PersonNames, personName, stripTitles } from './coreference.js'
import { isOrganizationHead } from './proper-name-type.js'

describe('person-name coreference', () => {
  it('maps a surname, a first name and a nickname to the full name', () => {
    const people = new PersonNames()
    people.addFullName('Wilfried Schneider', ['Willi'])
    expect(people.fullNameOf('Schneider')).toBe('Wilfried Schneider')
    expect(people.fullNameOf('Wilfried')).toBe('Wilfried Schneider')
    expect(people.fullNameOf('Willi')).toBe('Wilfried Schneider')
    expect(people.fullNameOf('Dr. Schneider')).toBe('Wilfried Schneider')
    expect(people.fullNameOf('Romy')).toBeNull()
  })

  it('gives a shared surname to the first full name of the text', () => {
    const people = new PersonNames()
    people.addFullName('Ross Patterson Alger')
    people.addFullName('Harry Alger')
    expect(people.fullNameOf('Alger')).toBe('Ross Patterson Alger')
    expect(people.fullNameOf('Harry Alger')).toBe('Harry Alger')
  })

  it('strips titles and reads a quoted nickname', () => {
    expect(stripTitles('Vice Admiral Robert Ghormley')).toBe('Robert Ghormley')
    expect(stripTitles('Lieutenant-General Sir George Prévost')).toBe('George Prévost')
    expect(stripTitles('Gov Rick Scott')).toBe('Rick Scott')
    expect(stripTitles('Doge Marino Faliero')).toBe('Marino Faliero')
    // A peer is named by the title; a stage name opens with one.
    expect(stripTitles('Viscount Alanbrooke')).toBe('Viscount Alanbrooke')
    expect(stripTitles('Duke Ellington')).toBe('Duke Ellington')
    // A noble title before a given name and a surname is a title, and so is a company's office.
    expect(stripTitles('Count Johan Oxenstierna')).toBe('Johan Oxenstierna')
    expect(stripTitles('CEO Maria Gonzalez')).toBe('Maria Gonzalez')
    // A role noun before two name words; not a given name shaped like one, nor before a lone surname.
    expect(stripTitles('Guitarist Jimmy Page')).toBe('Jimmy Page')
    expect(stripTitles('Advisor James L. Jones')).toBe('James L. Jones')
    expect(stripTitles('Christian Louis Lange')).toBe('Christian Louis Lange')
    expect(stripTitles('Brian Harold May')).toBe('Brian Harold May')
    expect(stripTitles('Son Heung-min')).toBe('Son Heung-min')
    // A sentence's first word the lexicon knows as a function word or a demonym; not a particle of a
    // surname, an adjective (nicknames) or an unknown word.
    expect(personName('During Johnson')).toBe('Johnson')
    expect(personName('Dame - Bill Gates')).toBe('Bill Gates')
    expect(personName('Les Dennis')).toBe('Les Dennis')
    expect(personName('De Silva')).toBe('De Silva')
    expect(personName('Red Greg Records')).toBe('Red Greg Records')
    expect(personName('Irishman Tadhg Kennelly')).toBe('Tadhg Kennelly')
    expect(personName('Zulfikar Ali Bhutto')).toBe('Zulfikar Ali Bhutto')
    expect(personName('Wild Bill')).toBe('Wild Bill')
    // Common nouns in small letters the tagger read into the name go, unless the last is a role or title.
    expect(personName('Obama administration')).toBe('Obama')
    expect(personName('Osama bin Laden raid')).toBe('Osama bin Laden')
    expect(personName('Vincent van Gogh')).toBe('Vincent van Gogh')
    expect(personName('Navy rear admiral')).toBe('Navy rear admiral')
    // No title: a concept keeps it, and so is no person by the title cue.
    expect(stripTitles('Best Supporting Actress')).toBe('Best Supporting Actress')
    const [m] = [...'Wilfried "Willi" Schneider won.'.matchAll(NICKNAME)]
    expect([m![1], m![2], m![3]]).toEqual(['Wilfried', 'Willi', 'Schneider'])
  })
})

describe('organisation-name coreference', () => {
  it('maps a kind word alone to the last organisation named with it', () => {
    const names = new OrganizationNames(isOrganizationHead)
    expect(names.fullNameOf('Council')).toBe('Council')
    expect(names.fullNameOf('Calgary City Council')).toBe('Calgary City Council')
    expect(names.fullNameOf('Council')).toBe('Calgary City Council')
    expect(names.fullNameOf('Edmonton City Council')).toBe('Edmonton City Council')
    expect(names.fullNameOf('Council')).toBe('Edmonton City Council')
    // A word that names no kind of organisation is nobody's short name.
    expect(names.fullNameOf('Microsoft')).toBe('Microsoft')
  })

  it("maps a team's nickname to the first team named with it", () => {
    const names = new OrganizationNames(isOrganizationHead)
    expect(names.teamOf('Royals')).toBeNull()
    names.addTeam('Kansas City Royals')
    names.addTeam('Omaha Royals')
    expect(names.teamOf('Royals')).toBe('Kansas City Royals')
    expect(names.teamOf('royals')).toBeNull()
  })
})
