import { describe, expect, it } from 'vitest'
import { defaultPipeline } from './pipeline/plan-stages.js'
import { compositionMarkers, isComposedQuestion, type NameSpread } from './query-shape.js'

describe('isComposedQuestion', () => {
  it.each([
    'What is the name of the waterfall in the country where the Bubye River is found?',
    'Who was the first president of the association which published Journal of Psychotherapy Integration?',
    'What kind of university did the author of Alexander and the Terrible Day attend?',
    'What currency predated the Euro in the country Signmark is from?',
    'What river flows through the city Kevin Durant played for?',
  ])('marks a question composed of look-ups: %s', (q) => {
    expect(isComposedQuestion(q)).toBe(true)
  })

  it.each([
    'What did Caroline research?',
    'When did Melanie paint a sunrise in 2023?',
    'How does Gina describe the feeling that dance brings?',
    'What did Maria donate to a homeless shelter in December 2023?',
    '0-dimensional biomaterials show inductive properties.',
    'Who wrote Hamlet?',
    '',
  ])('leaves a single look-up or a claim alone: %s', (q) => {
    expect(isComposedQuestion(q)).toBe(false)
  })

  it('does not count the opening wh-word, and counts each marked phrase', () => {
    expect(compositionMarkers('Who is the author?')).toBe(0)
    expect(
      compositionMarkers('Who ruled the country where the composer of Aschenbrodel was born?'),
    ).toBe(2)
  })
})

describe('possessive names', () => {
  /** A brain of 1,000 passages where each name is held by the given number of them. */
  const brain =
    (held: Record<string, number>): NameSpread =>
    (name) => ({ holding: held[name] ?? 0, total: 1000 })
  const spread = brain({ 'Peter Bonetti': 3, Gisvi: 1, Melanie: 480, 'The Beatles': 10 })

  it('marks a possessive of a name few passages hold', () => {
    expect(
      isComposedQuestion(
        "Who scored the first goal of last season for Peter Bonetti's team?",
        spread,
      ),
    ).toBe(true)
    expect(
      compositionMarkers("What is the most popular hotel in Gisvi's city of birth?", spread),
    ).toBe(1)
  })

  it("leaves a possessive of the brain's own subject, of a name no passage holds, or without a reader", () => {
    expect(isComposedQuestion("What are Melanie's kids like?", spread)).toBe(false)
    expect(isComposedQuestion("What was Johns's reaction to the deal?", spread)).toBe(false)
    expect(
      isComposedQuestion("Who scored the first goal of last season for Peter Bonetti's team?"),
    ).toBe(false)
    // Not a name (lower case), no word after it, or a plural's apostrophe alone.
    expect(isComposedQuestion("Where was The Beatles' drummer born?", spread)).toBe(false)
    expect(isComposedQuestion("Where is the team's stadium?", brain({ team: 1 }))).toBe(false)
    expect(isComposedQuestion("Whose is it, Gisvi's?", spread)).toBe(false)
  })

  it('reads a name of several words up to, not including, the first word', () => {
    const asked: string[] = []
    const reader: NameSpread = (name) => {
      asked.push(name)
      return { holding: 1, total: 1000 }
    }
    isComposedQuestion(
      "When did the Deane Waldo Malott's alma mater start issuing degrees?",
      reader,
    )
    isComposedQuestion("Gisvi's city is where?", reader)
    expect(asked).toEqual(['Deane Waldo Malott'])
  })

  it('counts a name held by at most 5% of the passages, and one passage of a small brain', () => {
    const question = "Who scored for Peter Bonetti's team?"
    const of =
      (holding: number, total: number): NameSpread =>
      () => ({ holding, total })
    expect(isComposedQuestion(question, of(50, 1000))).toBe(true)
    expect(isComposedQuestion(question, of(51, 1000))).toBe(false)
    expect(isComposedQuestion(question, of(2, 40))).toBe(true)
    expect(isComposedQuestion(question, of(1, 10))).toBe(true)
    expect(isComposedQuestion(question, of(2, 10))).toBe(false)
  })

  it('chooses the hop in the default pipeline', () => {
    const request = {
      query: "Which region is Corey Taylor's city of birth located in?",
      channels: ['passages'],
      expand: 'auto' as const,
      rerank: 'auto',
    }
    expect(defaultPipeline(request, () => ({ holding: 2, total: 1890 })).rerank).toBe('plugin:hops')
    expect(defaultPipeline(request, () => ({ holding: 900, total: 1890 })).rerank).toBe('none')
    expect(defaultPipeline(request).rerank).toBe('none')
  })
})

describe('defaultPipeline', () => {
  const composed = 'Who ruled the country where the composer of Aschenbrodel was born?'
  const base = {
    query: composed,
    channels: ['passages'],
    expand: 'auto' as const,
    rerank: 'auto',
  }

  it('runs the graph stage, and hops for a composed question, over passage channels', () => {
    expect(defaultPipeline(base)).toEqual({ expand: 'neighbors', rerank: 'plugin:hops' })
    expect(defaultPipeline({ ...base, query: 'What did Caroline research?' })).toEqual({
      expand: 'neighbors',
      rerank: 'none',
    })
    expect(defaultPipeline({ ...base, channels: ['passages', 'plugin:marker'] })).toEqual({
      expand: 'neighbors',
      rerank: 'plugin:hops',
    })
  })

  it('leaves entity, event and community searches as they are', () => {
    expect(defaultPipeline({ ...base, channels: ['passages', 'entities'] })).toEqual({
      expand: 'none',
      rerank: 'none',
    })
  })

  it('keeps what the request named', () => {
    expect(defaultPipeline({ ...base, expand: 'none', rerank: 'plugin:coverage' })).toEqual({
      expand: 'none',
      rerank: 'plugin:coverage',
    })
  })
})
