import { printResult } from '../run/tsx-child.js'
import { loadLatencyFixture } from './latency-fixture.js'
import { startSeededServer } from './seeded-server.js'

/**
 * Child entry: `tsx --conditions=source benchmarks/src/latency/seeded-server-main.ts <datasets dir>` starts a
 * seeded server in its own process (so autocannon in the parent does not share its event loop), prints
 * `{url, corpus, pid}` (the pid of the process serving, whose CPU time the parent reads) and serves until
 * SIGTERM.
 */
const server = await startSeededServer(loadLatencyFixture(process.argv[2]!))
printResult({ url: server.url, corpus: server.corpus, pid: process.pid })
process.once('SIGTERM', () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  )
})
