import { loadConfig } from '../config.js'
import { embedderFromConfig } from '../embedder-from-config.js'

/** `engram serve`: the server (or, with `ROLE=worker`, the task runner) until SIGTERM or SIGINT. */
export async function serveCommand(): Promise<number> {
  const config = loadConfig()
  // The embedder's first worker starts loading its model now, on its own thread, while the server's
  // modules (Fastify, the routes, the adapters) load on this one.
  const embedder = embedderFromConfig(config).then((e) => {
    e?.warmUp?.(1).catch(() => {}) // a failure is reported by startServer, which waits for it
    return e
  })
  embedder.catch(() => {}) // likewise: startServer awaits it and reports
  const { startServer } = await import('../start-server.js')
  const server = await startServer(config, console.log, { embedder })
  server.app.log.info(
    config.role === 'worker'
      ? `Engram ${config.version} worker running tasks (storage: ${config.storage}; no HTTP)`
      : `Engram ${config.version} listening on ${server.url} (storage: ${config.storage}, role: ${config.role}, data: ${config.dataDir})`,
  )
  const shutdown = (signal: string) => {
    server.app.log.info(`${signal} received: shutting down`)
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        server.app.log.error({ err: error }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  process.once('SIGTERM', () => shutdown('SIGTERM'))
  process.once('SIGINT', () => shutdown('SIGINT'))
  // Dropped database connections are survived (docs/scaling-out.md); what the engine cannot recover
  // from (the database refuses this process for good) ends the process non-zero, the reason logged.
  server.engram.onFatal((error) => {
    server.app.log.fatal({ err: error }, `exiting: ${error.message}`)
    process.exit(1)
  })
  // Serving ends only by a signal: an event loop left with nothing to wait on (a worker serves no
  // HTTP) is a bug, reported as such rather than as a clean exit.
  process.once('beforeExit', () => {
    server.app.log.fatal('exiting: nothing left to run (no server, timer or connection)')
    process.exit(1)
  })
  return 0
}
