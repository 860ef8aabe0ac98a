import { describe, expect, it } from 'vitest'
import { entityListScenario, ingestScenario, searchScenario } from './http-scenarios.js'

describe('HTTP scenarios', () => {
  it('use the CONTRACT.md parameter names and rotate over their inputs', () => {
    const search = searchScenario(['cell biology', 'DNA'])
    expect(search.next().path).toBe('/retrieve/search?query=cell%20biology&k=10')
    expect(search.next().path).toBe('/retrieve/search?query=DNA&k=10')
    expect(search.next().path).toBe('/retrieve/search?query=cell%20biology&k=10')
    const entities = entityListScenario()
    expect([entities.next().path, entities.next().path]).toEqual([
      '/retrieve/entities?limit=20&skip=0',
      '/retrieve/entities?limit=20&skip=20',
    ])
    const ingest = ingestScenario(['Ada met Alan.'])
    expect(ingest.method).toBe('POST')
    expect(ingest.next()).toEqual({ path: '/ingest/', body: '{"text":"Ada met Alan."}' })
  })
})
