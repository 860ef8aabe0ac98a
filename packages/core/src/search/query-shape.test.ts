import { describe, expect, it } from 'vitest'
import { defaultPipeline } from './pipeline/plan-stages.js'
import { compositionMarkers, isComposedQuestion } from './query-shape.js'

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
