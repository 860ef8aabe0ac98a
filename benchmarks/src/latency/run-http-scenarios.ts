import { fileURLToPath } from 'node:url'
import { startChild } from '../run/tsx-child.js'
import {
  entityListScenario,
  healthScenario,
  ingestScenario,
  runHttpScenario,
  searchScenario,
  type HttpResult,
} from './http-scenarios.js'
import type { LatencyFixture } from './latency-fixture.js'
import { processCpuMs } from '../run/proc-cpu.js'
import { BENCH_TOKEN, startSeededServer, type SeededCorpus } from './seeded-server.js'

export const HTTP_SECONDS = 10
export const HTTP_CONNECTIONS = 32

export interface HttpRun {
  /** `child process` (the headline) or `in process` (server and autocannon on one event loop). */
  readonly mode: string
  readonly corpus: SeededCorpus
  readonly results: readonly HttpResult[]
}

const SERVER_MAIN = fileURLToPath(new URL('./seeded-server-main.ts', import.meta.url))

/**
 * The HTTP scenarios: first against a seeded server in a child process (health, the yardstick of HTTP
 * alone; search, entity list, then ingest
 * accept last, because the tasks it queues keep the server busy), then the search scenario again with the
 * server in this process, to show what sharing one event loop with the load generator costs.
 */
export async function runHttpScenarios(
  fixture: LatencyFixture,
  dataDir: string,
  log: (line: string) => void,
): Promise<HttpRun[]> {
  const turns = fixture.locomo().groups.flatMap((g) => g.docs.map((d) => d.text))
  const runs: HttpRun[] = []
  const run = async (
    url: string,
    scenarios: ReturnType<typeof searchScenario>[],
    serverCpuMs?: () => number | null,
  ) => {
    const results: HttpResult[] = []
    for (const scenario of scenarios) {
      // A short untimed run first: JIT, connection setup and caches are not part of the figure.
      await runHttpScenario(url, BENCH_TOKEN, scenario, 2, HTTP_CONNECTIONS)
      const r = await runHttpScenario(
        url,
        BENCH_TOKEN,
        scenario,
        HTTP_SECONDS,
        HTTP_CONNECTIONS,
        serverCpuMs,
      )
      const cpu = r.serverCpuMsPerRequest
      log(
        `http ${r.name}: ${r.requestsPerSec.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, statuses ${JSON.stringify(r.statuses)}, errors ${r.errors}` +
          (cpu === null ? '' : `, server CPU ${cpu.toFixed(3)} ms/request`) +
          `, load ${r.load1.toFixed(2)}`,
      )
      results.push(r)
    }
    return results
  }

  const child = await startChild<{ url: string; corpus: SeededCorpus; pid: number }>(SERVER_MAIN, [
    dataDir,
  ])
  try {
    const { url, corpus, pid } = child.result
    log(`http: server in a child process at ${url}, ${JSON.stringify(corpus)}`)
    const results = await run(
      url,
      [
        healthScenario(),
        searchScenario(fixture.scifact.queries),
        entityListScenario(),
        ingestScenario(turns),
      ],
      // The serving process itself (tsx runs the entry in a process of its own under the one spawned).
      () => processCpuMs(pid),
    )
    runs.push({ mode: 'child process', corpus, results })
  } finally {
    await child.stop()
  }

  const server = await startSeededServer(fixture)
  try {
    log(`http: server in this process at ${server.url}`)
    const results = await run(server.url, [searchScenario(fixture.scifact.queries)])
    runs.push({ mode: 'in process', corpus: server.corpus, results })
  } finally {
    await server.close()
  }
  return runs
}
