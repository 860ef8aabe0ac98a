import { describe, expect, it } from 'vitest'
import { BUILTIN_CHANNELS, BUILTIN_FUSIONS, searchChoices } from './search-choices.js'

describe('searchChoices', () => {
  it('keeps what the server lists, built-ins first, then plugins in its order', () => {
    const listed = {
      channels: [
        ...BUILTIN_CHANNELS,
        { name: 'plugin:phrase', builtin: false, yields: 'passages' as const },
        { name: 'plugin:people', builtin: false, yields: 'entities' as const },
      ],
      fusions: [...BUILTIN_FUSIONS, { name: 'plugin:combmnz', builtin: false }],
    }
    expect(searchChoices(listed)).toEqual(listed)
  })

  it('moves a plugin listed among the built-ins after them', () => {
    const choices = searchChoices({
      channels: [
        { name: 'plugin:phrase', builtin: false, yields: 'passages' },
        { name: 'passages', builtin: true, yields: 'passages' },
        { name: 'entities', builtin: true, yields: 'entities' },
      ],
      fusions: [
        { name: 'plugin:combmnz', builtin: false },
        { name: 'rrf', builtin: true },
      ],
    })
    expect(choices.channels.map((c) => c.name)).toEqual(['passages', 'entities', 'plugin:phrase'])
    expect(choices.fusions.map((f) => f.name)).toEqual(['rrf', 'plugin:combmnz'])
  })

  it('offers only what is listed: a server without a built-in does not get its toggle', () => {
    const choices = searchChoices({ channels: [BUILTIN_CHANNELS[0]!], fusions: [] })
    expect(choices).toEqual({ channels: [BUILTIN_CHANNELS[0]], fusions: [] })
  })
})
