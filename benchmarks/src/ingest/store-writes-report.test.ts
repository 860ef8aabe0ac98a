import { describe, expect, it } from 'vitest'
import { describeRenderedPage } from '../report/rendered-page.test-helper.js'
import { storeWritesReport } from './store-writes-report.js'
import type { StoreWritesResult } from './store-writes-result.js'
import { TEST_ENVIRONMENT } from '../run/environment.test-helper.js'

function result(): StoreWritesResult {
  return {
    command: 'npm run bench -- --store-writes 3',
    environment: TEST_ENVIRONMENT,
    tasks: 100,
    brains: 2,
    passages: 100,
    writes: { applies: 100, creates: 100, puts: 100 },
    replays: [300, 200, 250].map((wallMs) => ({ wallMs, cpuMs: wallMs + 10, load1: 1 })),
    frames: {
      brain: 'conv-1',
      commits: [
        { kind: 'batch (store.apply)', commits: 50, frames: 3000 },
        { kind: 'task created (tasks.create)', commits: 50, frames: 150 },
        { kind: 'task updated (tasks.put)', commits: 0, frames: 0 },
      ],
      trees: [
        { name: 'evidence_record', frames: 2000 },
        { name: 'entities', frames: 1000 },
      ],
    },
  }
}

describe('store-writes report', () => {
  it('gives the replays as min / median / max, and per task', () => {
    expect(storeWritesReport(result())).toContain(
      '| replay of the 300 writes (3 runs) | 200 / 250 / 300 | 210 / 260 / 310 | 2.000 / 2.500 / 3.000 |',
    )
  })

  it('gives frames per commit kind and per table or index, without dividing by zero', () => {
    const md = storeWritesReport(result())
    expect(md).toContain('| batch (store.apply) | 50 | 3,000 | 60.0 |')
    expect(md).toContain('| task updated (tasks.put) | 0 | 0 | - |')
    expect(md).toContain('| evidence_record | 2,000 | 40.00 | 66.7% |')
    expect(md).toContain('| entities | 1,000 | 20.00 | 33.3% |')
  })
})

describeRenderedPage<StoreWritesResult>('store-writes', (saved) => storeWritesReport(saved))
