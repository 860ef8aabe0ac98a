import { describe, expect, it } from 'vitest'
import type { CpuProfile } from './cpu-profile-summary.js'
import { sampleRuns } from './cpu-profile-runs.js'

const frame = (functionName: string) => ({ functionName, url: '', lineNumber: 0 })

describe('sampleRuns', () => {
  it('measures each stretch of consecutive samples inside the frame, its callees included', () => {
    // root -> tx -> write; root -> other. Samples: tx, write, other, tx, tx, tx, other (1 ms apart).
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2, 4] },
        { id: 2, callFrame: frame('sqliteTransaction'), children: [3] },
        { id: 3, callFrame: frame('write') },
        { id: 4, callFrame: frame('other') },
      ],
      startTime: 0,
      endTime: 7000,
      samples: [2, 3, 4, 2, 2, 2, 4],
      timeDeltas: [0, 1000, 1000, 1000, 1000, 1000, 1000],
    }
    const runs = sampleRuns(profile, /^sqliteTransaction$/)
    expect(runs).toMatchObject({ count: 2, totalMs: 5, max: 3, over20: 0 })
    expect(runs.p50).toBe(2)
  })
})
