import { describe, expect, it } from 'vitest'
import type { StorageAdapter, StorageRuntime } from '../contracts/storage-adapter.js'
import { memoryAdapter } from '../memory-adapter/index.js'
import { createEngineCore } from './engine-core.js'

/** A memory adapter that keeps the runtime the engine opens it with. */
function watchedAdapter() {
  const base = memoryAdapter()
  let runtime: StorageRuntime | undefined
  const adapter: StorageAdapter = {
    ...base,
    async open(given) {
      runtime = given
      await base.open()
    },
  }
  return { adapter, runtime: () => runtime! }
}

describe('engine onFatal', () => {
  it('passes the adapter its logger and `fatal`, and tells every listener once, late ones at once', async () => {
    const { adapter, runtime } = watchedAdapter()
    const logged: string[] = []
    const engine = createEngineCore({
      storage: adapter,
      version: 'test',
      logger: {
        debug() {},
        info() {},
        warn() {},
        error: (_obj, msg) => void logged.push(msg ?? ''),
      },
    })
    const heard: string[] = []
    engine.onFatal((error) => heard.push(`early: ${error.message}`))
    await engine.start()
    runtime().fatal(new Error('The database refuses this process: database "x" does not exist'))
    runtime().fatal(new Error('a second report'))
    engine.onFatal((error) => heard.push(`late: ${error.message}`))
    expect(heard).toEqual([
      'early: The database refuses this process: database "x" does not exist',
      'late: The database refuses this process: database "x" does not exist',
    ])
    expect(logged).toEqual([
      'fatal: The database refuses this process: database "x" does not exist',
    ])
    await engine.stop()
  })
})
