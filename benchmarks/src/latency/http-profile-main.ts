import { writeFileSync } from 'node:fs'
import { findSourceMap } from 'node:module'
import { Session } from 'node:inspector/promises'
import { printResult } from '../run/tsx-child.js'
import { loadLatencyFixture } from './latency-fixture.js'
import { startSeededServer } from './seeded-server.js'

/**
 * Child entry of `http-profile.ts`: `<datasets dir> <out.cpuprofile>`. Starts a seeded server (as the
 * latency suite's child does), prints `{url, pid}`, then profiles its CPU (V8's sampling profiler, the one
 * `node --cpu-prof` uses) from SIGUSR2 until SIGTERM, so the seeding and the warm-up are not in the profile.
 */
const [dataDir, out] = [process.argv[2]!, process.argv[3]!]
const server = await startSeededServer(loadLatencyFixture(dataDir))
const session = new Session()
session.connect()
await session.post('Profiler.enable')
// 100 us between samples (V8's default is 1 ms): a search request is well under a millisecond.
await session.post('Profiler.setSamplingInterval', { interval: 100 })
/**
 * tsx runs TypeScript transformed onto one line; its source maps (enabled by tsx) give the frames their
 * lines in the .ts files again, as DevTools would show them.
 */
function toSourceLines<
  P extends { nodes: { callFrame: { url: string; lineNumber: number; columnNumber: number } }[] },
>(profile: P): P {
  for (const { callFrame } of profile.nodes) {
    if (!callFrame.url.startsWith('file:') || callFrame.lineNumber < 0) continue
    const entry = findSourceMap(callFrame.url)?.findEntry(
      callFrame.lineNumber,
      callFrame.columnNumber,
    )
    if (entry && 'originalLine' in entry) {
      callFrame.lineNumber = entry.originalLine
      callFrame.columnNumber = entry.originalColumn
    }
  }
  return profile
}

process.on('SIGUSR2', () => void session.post('Profiler.start'))
process.once('SIGTERM', () => {
  void (async () => {
    const { profile } = await session.post('Profiler.stop')
    writeFileSync(out, JSON.stringify(toSourceLines(profile)))
    await server.close()
    process.exit(0)
  })().catch(() => process.exit(1))
})
printResult({ url: server.url, pid: process.pid })
