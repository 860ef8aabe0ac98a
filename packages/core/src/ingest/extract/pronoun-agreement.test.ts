import { describe, expect, it } from 'vitest'
import { mentionGender, PersonGenders, pronounGender } from './pronoun-agreement.js'

const word = (text: string, ...tags: string[]) => ({ text, tags })

describe('pronoun agreement', () => {
  it("reads a mention's gender from its given name, else from a title", () => {
    expect(mentionGender([word('Marie', 'FirstName', 'FemaleName'), word('Curie')], '')).toBe(
      'female',
    )
    expect(mentionGender([word('Hans', 'FirstName', 'MaleName')], 'Mrs. ')).toBe('male')
    expect(mentionGender([word('Mr', 'Honorific'), word('Brown')], '')).toBe('male')
    expect(mentionGender([word('Green')], 'In 1990 Queen ')).toBe('female')
    expect(mentionGender([word('Taylor'), word('Swift')], 'The singer ')).toBeNull()
  })

  it('lets a pronoun refer to a person unless the text shows the other gender', () => {
    const people = new PersonGenders()
    people.note('john', 'male')
    people.note('taylor', null)
    expect(pronounGender('She')).toBe('female')
    expect(pronounGender('they')).toBeNull()
    expect(people.agrees('john', 'female')).toBe(false)
    expect(people.agrees('john', 'male')).toBe(true)
    expect(people.agrees('john', null)).toBe(true)
    expect(people.agrees('taylor', 'female')).toBe(true)
    // Both genders under one key (two people, or a tagger's error): no constraint.
    people.note('john', 'female')
    expect(people.agrees('john', 'female')).toBe(true)
  })
})
