import { describe, expect, it } from 'vitest'
import { searchBody, type SearchForm } from './search-request.js'

const form: SearchForm = {
  query: '  who met Ada? ',
  k: 10,
  channels: ['passages', 'entities'],
  extraChannels: ' plugin:recency , ',
  fusion: '',
  fusionAlpha: 0.3,
  rerank: '',
  expand: 'auto',
  asOf: '',
}

describe('searchBody', () => {
  it('sends the ticked and typed channels, leaves the defaults to the server, profiles stages', () => {
    expect(searchBody(form)).toEqual({
      query: 'who met Ada?',
      k: 10,
      channels: ['passages', 'entities', 'plugin:recency'],
      expand: 'auto',
      profile_stages: true,
    })
  })

  it('sends rerank none when asked, so the server does not choose', () => {
    expect(searchBody({ ...form, rerank: 'none', expand: 'none' })).toMatchObject({
      rerank: 'none',
      expand: 'none',
    })
  })

  it('sends fusion_alpha only with cc, and a rerank plugin when named', () => {
    const body = searchBody({ ...form, fusion: 'cc', rerank: 'plugin:ce', expand: 'neighbors' })
    expect(body).toMatchObject({
      fusion: 'cc',
      fusion_alpha: 0.3,
      rerank: 'plugin:ce',
      expand: 'neighbors',
    })
    expect(searchBody({ ...form, fusion: 'rrf' })).not.toHaveProperty('fusion_alpha')
  })

  it('asks as of the date field, and about now when it is empty', () => {
    expect(searchBody({ ...form, asOf: '2021-06-01' })).toMatchObject({ as_of: '2021-06-01' })
    expect(searchBody(form)).not.toHaveProperty('as_of')
  })
})
