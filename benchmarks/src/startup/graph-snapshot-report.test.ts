import { describe, expect, it } from 'vitest'
import { describeRenderedPage } from '../report/rendered-page.test-helper.js'
import { graphSnapshotReport } from './graph-snapshot-report.js'
import type { GraphSnapshotResult } from './graph-snapshot-result.js'
import { TEST_ENVIRONMENT } from '../run/environment.test-helper.js'

function result(loadedEqualsBuilt = true): GraphSnapshotResult {
  const build = (wallMs: number) => ({ wallMs, cpuMs: wallMs * 1.1, heapMb: 60, load1: 1 })
  const load = (wallMs: number) => ({
    ...build(wallMs),
    heapMb: 40,
    readMs: 10,
    sha256Ms: 20,
    decodeMs: 30,
    assembleMs: wallMs - 60,
    stallMs: wallMs - 100,
  })
  return {
    command: 'npm run bench -- --graph-snapshot 3',
    environment: TEST_ENVIRONMENT,
    graph: { entities: 110_000, relationships: 227_000, nodes: 113_000, edges: 227_000 },
    storeMs: 9000,
    sqliteBytes: 80 * 2 ** 20,
    builds: [build(4000), build(3000), build(5000)],
    saves: [1, 2, 3].map((i) => ({ wallMs: 300 * i, cpuMs: 250, bytes: 24_000_000 })),
    loads: [load(1000), load(800), load(900)],
    loadedEqualsBuilt,
    lexical: {
      documents: { entities: 12_000, events: 100_000 },
      bytes: 6 * 2 ** 20,
      buildMs: 4000,
      loads: [150, 120, 130].map((wallMs) => ({ wallMs, cpuMs: wallMs, stallMs: 11, load1: 1 })),
      loadedEqualsBuilt,
    },
    loadAfter: [1, 1, 1],
  }
}

describe('graph-snapshot report', () => {
  it('gives min / median / max of builds and loads, and their ratio', () => {
    const md = graphSnapshotReport(result())
    expect(md).toContain('| build from SQLite (`GraphIndex.build`) | 3000 / 4000 / 5000 |')
    expect(md).toContain(
      '| load of the snapshot (`loadGraphSnapshot`) | 800 / 900 / 1000 | 880 / 990 / 1100 | 40 / 40 / 40 | 700 / 800 / 900 |',
    )
    expect(md).toContain('restored) | 120 / 130 / 150 | 120 / 130 / 150 |  | 11 / 11 / 11 |')
    expect(md).toContain('The snapshot file: 22.9 MiB (24,000,000 bytes)')
    expect(md).toContain('Median build / median load: 4.4x.')
    expect(md).toContain('with the built index: equal.')
  })

  it('gives the longest stall of saves when the probe ran beside saves (none in older results)', () => {
    const withStalls = result()
    const saves = withStalls.saves.map((s, i) => ({ ...s, stallMs: 10 + i }))
    const md = graphSnapshotReport({ ...withStalls, saves })
    expect(md).toContain(
      '| save of the snapshot (`saveGraphSnapshot`) | 300 / 600 / 900 | 250 / 250 / 250 |  | 10 / 11 / 12 |',
    )
    expect(md).toContain('beside each save and load')
    expect(graphSnapshotReport(result())).toContain(
      '| save of the snapshot (`saveGraphSnapshot`) | 300 / 600 / 900 | 250 / 250 / 250 |  |  |',
    )
  })

  it('says so when the loaded graph differed', () => {
    expect(graphSnapshotReport(result(false))).toContain('with the built index: DIFFERENT.')
    expect(graphSnapshotReport(result(false))).toContain('(their snapshot parts): DIFFERENT.')
  })
})

describeRenderedPage<GraphSnapshotResult>('graph-snapshot', (saved) => graphSnapshotReport(saved))
