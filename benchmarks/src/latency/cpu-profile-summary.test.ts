import { describe, expect, it } from 'vitest'
import { areaOf, summarizeProfile, type CpuProfile } from './cpu-profile-summary.js'

const frame = (functionName: string, url = '', lineNumber = 0) => ({
  functionName,
  url,
  lineNumber,
})

/** root -> handler (server) -> search (core); root -> (idle). Samples: handler, search x2, idle. */
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 4] },
    {
      id: 2,
      callFrame: frame('handler', 'file:///r/packages/server/src/app.ts', 9),
      children: [3],
    },
    { id: 3, callFrame: frame('search', 'file:///r/packages/core/src/search/s.ts', 1) },
    { id: 4, callFrame: frame('(idle)') },
  ],
  startTime: 0,
  endTime: 500,
  samples: [2, 3, 3, 4, 2],
  // Each sample is charged the delta to the next one: 100, 100, 100, 200 us, the last nothing.
  timeDeltas: [0, 100, 100, 100, 200],
}

describe('summarizeProfile', () => {
  it('charges self time per frame and area, idle apart, and inclusive time per named stage', () => {
    const s = summarizeProfile(profile, { engine: /\(packages\/core\// })
    expect(s.totalMs).toBe(0.5)
    expect(s.idleMs).toBe(0.2)
    expect(s.frames.map((f) => [f.frame, f.selfMs])).toEqual([
      ['search (packages/core/src/search/s.ts:2)', 0.2],
      ['handler (packages/server/src/app.ts:10)', 0.1],
    ])
    expect(s.areas[0]).toMatchObject({ area: 'engram:core', selfMs: 0.2 })
    expect(s.inclusive.engine).toBe(0.2)
    expect(s.folded.split('\n')).toEqual([
      'handler (packages/server/src/app.ts:10);search (packages/core/src/search/s.ts:2) 200',
      'handler (packages/server/src/app.ts:10) 100',
    ])
  })

  it('names the package of a frame', () => {
    expect(areaOf('file:///r/node_modules/@fastify/swagger/index.js', 'f')).toBe('@fastify/swagger')
    expect(areaOf('file:///r/node_modules/fastify/lib/reply.js', 'f')).toBe('fastify')
    expect(areaOf('node:internal/streams/writable', 'f')).toBe('node:internals')
    expect(areaOf('', '(garbage collector)')).toBe('(garbage collector)')
    expect(areaOf('file:///r/adapters/sqlite/src/a.ts', 'f')).toBe('engram:sqlite')
  })
})
