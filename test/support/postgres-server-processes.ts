import { afterAll, afterEach } from 'vitest'
import { testDatabases } from '../../adapters/postgres/test/support/ensure-postgres.js'
import { killHard, type ServerProcess } from './spawn-server.js'

/**
 * For a test file whose tests run server processes on throwaway PostgreSQL databases: `databases`
 * creates them (`create()`, a fresh one each call) and `processes` is where a test puts what it
 * spawns. After each test every process still in `processes` is SIGKILLed (a failed test leaves none
 * running), and after the file every database is dropped. Call it once, at the file's top level: it
 * registers those hooks.
 */
export function postgresServerProcesses() {
  const databases = testDatabases()
  const processes: ServerProcess[] = []
  afterEach(async () => {
    await Promise.all(processes.splice(0).map((p) => killHard(p).catch(() => {})))
  })
  afterAll(() => databases.dropAll())
  return { databases, processes }
}
