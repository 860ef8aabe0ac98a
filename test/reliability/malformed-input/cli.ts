import { parseArgs } from 'node:util'
import { runMalformedInput } from './run-malformed-input.js'

/**
 * The malformed-input run against any running server, for runs longer than the test's:
 *
 *   npx tsx test/reliability/malformed-input/cli.ts --url http://127.0.0.1:8000 \
 *     --token "$SERVICEPAT_TOKEN" --requests 100000 --seed 7
 *
 * The server should be a throwaway one: the run creates brains, entities and tasks. Exit code 1
 * when a case fails; `--only 12,345` replays cases of the same seed.
 */
const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://127.0.0.1:8000' },
    token: { type: 'string', default: process.env.SERVICEPAT_TOKEN ?? '' },
    seed: { type: 'string', default: '20261124' },
    requests: { type: 'string', default: '10500' },
    concurrency: { type: 'string', default: '8' },
    only: { type: 'string' },
  },
})

const report = await runMalformedInput({
  url: values.url.replace(/\/$/, ''),
  systemToken: values.token,
  seed: Number(values.seed),
  requests: Number(values.requests),
  concurrency: Number(values.concurrency),
  ...(values.only !== undefined ? { only: values.only.split(',').map(Number) } : {}),
})
console.log(
  `seed ${report.seed}: ${report.requests} requests over ${report.operations} operations in ${report.durationMs} ms`,
)
console.log(`statuses ${JSON.stringify(report.statuses)}`)
console.log(`transports ${JSON.stringify(report.transports)}`)
for (const failure of report.failures) console.log(JSON.stringify(failure))
console.log(`${report.failures.length} failing cases`)
process.exitCode = report.failures.length > 0 ? 1 : 0
