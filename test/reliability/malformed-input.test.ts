import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { killHard, spawnServer, type ServerProcess } from '../support/spawn-server.js'
import { runMalformedInput } from './malformed-input/run-malformed-input.js'

/**
 * Issue 11, "How it will be checked": a malformed-input run generated from the server's own
 * /openapi.json (and its MCP tools) over real HTTP against `engram serve`: every operation with wrong
 * and edge values, nesting to 10,000 levels, 1 MB strings, 11 MB bodies, broken multipart, long URLs
 * and headers, malformed HTTP. Zero 5xx, zero resets for a client that writes its whole request
 * before reading, every non-2xx in the envelope with request_id = X-Request-ID.
 *
 * MALFORMED_SEED and MALFORMED_REQUESTS change the run; a failure prints its case index, and
 * `MALFORMED_ONLY=12,345` replays those cases alone (docs/request-limits.md has the script for
 * longer runs against any server).
 */

const TOKEN = 'spat_malformed-input-system-token-0'
const SEED = Number(process.env.MALFORMED_SEED ?? 20261124)
const REQUESTS = Number(process.env.MALFORMED_REQUESTS ?? 10_500)
const ONLY = process.env.MALFORMED_ONLY?.split(',').map(Number)

let dataDir = ''
let server: ServerProcess
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'engram-malformed-'))
  server = await spawnServer({ ENGRAM_DATA_DIR: dataDir, SERVICEPAT_TOKEN: TOKEN, WORKERS: '1' })
})
afterAll(async () => {
  if (server !== undefined) await killHard(server)
  rmSync(dataDir, { recursive: true, force: true })
})

describe('the malformed-input run', () => {
  it(`${REQUESTS} generated requests: no 5xx, no reset, the envelope on every error`, async () => {
    const report = await runMalformedInput({
      url: server.url,
      systemToken: TOKEN,
      seed: SEED,
      requests: REQUESTS,
      ...(ONLY !== undefined ? { only: ONLY } : {}),
    })
    console.log(
      `malformed-input run: seed ${report.seed}, ${report.requests} requests over ${report.operations} operations in ${report.durationMs} ms; statuses ${JSON.stringify(report.statuses)}; transports ${JSON.stringify(report.transports)}`,
    )
    for (const f of report.failures.slice(0, 20)) console.log(JSON.stringify(f))
    expect(report.failures, `seed ${report.seed}: replay with MALFORMED_ONLY`).toEqual([])
    if (process.env.MALFORMED_REQUESTS === undefined && ONLY === undefined)
      expect(report.requests).toBeGreaterThanOrEqual(10_000)
    // The run reaches the handlers, not only the validators.
    expect(Object.keys(report.statuses).filter((s) => Number(s) < 300).length).toBeGreaterThan(0)
  }, 300_000)
})
