import { describe, expect, it } from 'vitest'
import { requestChannels } from './request-channels.js'

describe('requestChannels', () => {
  it('drops dense beside passages, whose channel already returns the dense list', () => {
    expect(requestChannels(['passages', 'dense'])).toEqual(['passages'])
    expect(requestChannels(['passages', 'dense', 'entities', 'events'])).toEqual([
      'passages',
      'entities',
      'events',
    ])
  })

  it('maps dense alone to the dense-only plugin channel', () => {
    expect(requestChannels(['dense'])).toEqual(['plugin:dense'])
    expect(requestChannels(['dense', 'entities'])).toEqual(['plugin:dense', 'entities'])
  })

  it('passes other channels through', () => {
    expect(requestChannels(['passages'])).toEqual(['passages'])
    expect(requestChannels(['passages', 'plugin:phrase'])).toEqual(['passages', 'plugin:phrase'])
  })
})
