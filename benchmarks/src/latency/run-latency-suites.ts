import { writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { Bench } from 'tinybench'
import { fmtMs } from '../report/format.js'
import { captureEnvironment } from '../run/environment.js'
import { loadLatencyFixture } from './latency-fixture.js'
import { latencyReport, TASK_TIME_MS, type SuiteRow } from './latency-report.js'
import { LATENCY_SUITES } from './latency-suites.js'
import { savedMixedLoadSection } from './mixed-load-report.js'
import { runHttpScenarios } from './run-http-scenarios.js'

/** Runs every ready tinybench suite and the HTTP scenarios, and writes results/latency.md. */
export async function runLatencySuites(
  dataDir: string,
  resultsDir: string,
  log: (line: string) => void,
): Promise<void> {
  const environment = captureEnvironment()
  const fixture = loadLatencyFixture(dataDir)
  const rows: SuiteRow[] = []
  const notes: string[] = []
  for (const suite of LATENCY_SUITES) {
    if (suite.missing || !suite.add) {
      log(`latency ${suite.name}: PENDING (${suite.missing})`)
      rows.push({ suite: suite.name, task: suite.stage, status: `pending: ${suite.missing}` })
      continue
    }
    const load1 = loadavg()[0]!
    const bench = new Bench({ time: TASK_TIME_MS })
    let setup
    try {
      setup = await suite.add(bench, fixture)
      await bench.run()
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      log(`latency ${suite.name}: FAILED (${message})`)
      rows.push({ suite: suite.name, task: suite.stage, status: `failed here: ${message}` })
      await setup?.teardown?.()
      continue
    }
    notes.push(`- **${suite.name}** (${suite.stage}): ${setup.note}.`)
    for (const task of bench.tasks) {
      const result = task.result
      if (!('latency' in result)) {
        const error = 'error' in result ? String(result.error) : result.state
        rows.push({ suite: suite.name, task: task.name, status: `failed here: ${error}` })
        continue
      }
      const l = result.latency
      rows.push({
        suite: suite.name,
        task: task.name,
        status: 'measured',
        latency: { p50: l.p50, p99: l.p99, mean: l.mean, samples: l.samplesCount },
        load1,
      })
      log(`latency ${suite.name} / ${task.name}: p50 ${fmtMs(l.p50)} ms, p99 ${fmtMs(l.p99)} ms`)
    }
    for (const extra of setup.rows ?? []) {
      const l = extra.latency
      rows.push({
        suite: suite.name,
        task: extra.task,
        status: 'measured',
        latency: { p50: l.p50, p99: l.p99, mean: l.mean, samples: l.count },
        load1,
      })
    }
    await setup.teardown?.()
  }
  const http = await runHttpScenarios(fixture, dataDir, log)
  writeFileSync(
    join(resultsDir, 'latency.md'),
    latencyReport(environment, rows, notes, http, savedMixedLoadSection(resultsDir)),
  )
  log(`wrote ${join(resultsDir, 'latency.md')}`)
}
