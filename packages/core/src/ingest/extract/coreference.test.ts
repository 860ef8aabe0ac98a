import { describe, expect, it } from 'vitest'
import { NICKNAME, OrganizationNames, PersonNames, stripTitles } from './coreference.js'
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
})
