import { describe, expect, it } from 'vitest'
import { type CoordinatedMention, typeCoordinatedNames } from './coordinated-names.js'

/** Mentions of `names` in `sentence`, in order, typed as given. */
function mentionsOf(sentence: string, names: [string, string][]): CoordinatedMention[] {
  let from = 0
  return names.map(([name, label]) => {
    const start = sentence.indexOf(name, from)
    from = start + name.length
    return { name, label, start, end: from }
  })
}

const labels = (mentions: CoordinatedMention[]) => mentions.map((m) => m.label)

describe('typeCoordinatedNames', () => {
  it("gives a list's proper-name concepts the type its typed names share", () => {
    const sentence = 'It borders Tarragona, Alt Penedès and Garraf.'
    const mentions = mentionsOf(sentence, [
      ['Tarragona', 'PLACE'],
      ['Alt Penedès', 'CONCEPT'],
      ['Garraf', 'CONCEPT'],
    ])
    typeCoordinatedNames(sentence, mentions)
    expect(labels(mentions)).toEqual(['PLACE', 'PLACE', 'PLACE'])
  })

  it('neither gives nor takes a type through a name in capitals', () => {
    // Labels in technical text: "EMAIL" (the acronym rule's organisation) made the others organisations.
    const labelList = 'Labels are MONEY, EMAIL, URL and QUANTITY.'
    const capitals = mentionsOf(labelList, [
      ['MONEY', 'CONCEPT'],
      ['EMAIL', 'ORGANIZATION'],
      ['URL', 'CONCEPT'],
      ['QUANTITY', 'CONCEPT'],
    ])
    expect(typeCoordinatedNames(labelList, capitals)).toEqual([])
    expect(labels(capitals)).toEqual(['CONCEPT', 'ORGANIZATION', 'CONCEPT', 'CONCEPT'])
    // The other names of the list still take the type they share.
    const clubs = 'He played for UEFA, Real Madrid, Chelsea and Dinamo București.'
    const mixed = mentionsOf(clubs, [
      ['UEFA', 'ORGANIZATION'],
      ['Real Madrid', 'ORGANIZATION'],
      ['Chelsea', 'CONCEPT'],
      ['Dinamo București', 'CONCEPT'],
    ])
    typeCoordinatedNames(clubs, mixed)
    expect(labels(mixed)).toEqual(Array(4).fill('ORGANIZATION'))
  })

  it('reads two names joined by "and" or "or" as a list, but not two joined by a comma alone', () => {
    const joined = 'He played with Garrick Ohlsson and Eindride Sommerseth.'
    const pair = mentionsOf(joined, [
      ['Garrick Ohlsson', 'PERSON'],
      ['Eindride Sommerseth', 'CONCEPT'],
    ])
    typeCoordinatedNames(joined, pair)
    expect(labels(pair)).toEqual(['PERSON', 'PERSON'])

    const addressed = 'Oof, Jon!'
    const vocative = mentionsOf(addressed, [
      ['Oof', 'CONCEPT'],
      ['Jon', 'PERSON'],
    ])
    typeCoordinatedNames(addressed, vocative)
    expect(labels(vocative)).toEqual(['CONCEPT', 'PERSON'])
  })

  it('changes nothing where typed names disagree, or words stand between the names', () => {
    const mixed = 'Nike, Gatorade and LeBron James sponsored it.'
    const disagreeing = mentionsOf(mixed, [
      ['Nike', 'ORGANIZATION'],
      ['Gatorade', 'CONCEPT'],
      ['LeBron James', 'PERSON'],
    ])
    typeCoordinatedNames(mixed, disagreeing)
    expect(labels(disagreeing)).toEqual(['ORGANIZATION', 'CONCEPT', 'PERSON'])

    const apart = 'Nike signed him and Gatorade followed.'
    const notAList = mentionsOf(apart, [
      ['Nike', 'ORGANIZATION'],
      ['Gatorade', 'CONCEPT'],
    ])
    typeCoordinatedNames(apart, notAList)
    expect(labels(notAList)).toEqual(['ORGANIZATION', 'CONCEPT'])
  })

  it('leaves concepts that are not written as proper names, and dates or amounts, as they are', () => {
    const sentence = "Nike, sports drinks, Australia's Minister, 1998 and Gatorade"
    const mentions = mentionsOf(sentence, [
      ['Nike', 'ORGANIZATION'],
      ['sports drinks', 'CONCEPT'],
      ["Australia's Minister", 'CONCEPT'],
      ['1998', 'DATE'],
      ['Gatorade', 'CONCEPT'],
    ])
    typeCoordinatedNames(sentence, mentions)
    expect(labels(mentions)).toEqual(['ORGANIZATION', 'CONCEPT', 'CONCEPT', 'DATE', 'ORGANIZATION'])
  })
})
