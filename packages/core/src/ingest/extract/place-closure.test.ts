import { describe, expect, it } from 'vitest'
import { locatedThrough } from './place-closure.js'

const RANKS: Record<string, number> = { california: 2, us: 3, ohio: 2, paris: 1 }
const rankOf = (key: string) => RANKS[key]
const edge = (subjectKey: string, objectKey: string, passage = 'p1') => ({
  subjectKey,
  objectKey,
  passageIds: [passage],
})

describe('locatedThrough', () => {
  it('puts a place in the ranked containers of its containers, with their passages', () => {
    const closure = locatedThrough(
      [edge('stockton', 'california', 'p1'), edge('california', 'us', 'p2')],
      rankOf,
    )
    expect(closure).toEqual([{ subjectKey: 'stockton', objectKey: 'us', passageIds: ['p1', 'p2'] }])
  })

  it('adds nothing a direct edge says, and stops at cycles', () => {
    expect(
      locatedThrough(
        [edge('stockton', 'california'), edge('california', 'us'), edge('stockton', 'us')],
        rankOf,
      ),
    ).toEqual([])
    expect(
      locatedThrough([edge('california', 'ohio'), edge('ohio', 'california')], rankOf),
    ).toEqual([])
  })

  it('reaches no unranked container, nor one ranked no higher than the inner place', () => {
    // A wrong edge between unranked places spreads no further than itself.
    expect(
      locatedThrough([edge('sylvania', 'wilderness'), edge('wilderness', 'forest')], rankOf),
    ).toEqual([])
    // A region in a region in a country: the country only.
    expect(
      locatedThrough([edge('california', 'ohio'), edge('ohio', 'us')], rankOf).map(
        (e) => e.objectKey,
      ),
    ).toEqual(['us'])
    expect(locatedThrough([edge('ohio', 'x'), edge('x', 'paris')], rankOf)).toEqual([])
  })
})
