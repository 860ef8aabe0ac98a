#!/usr/bin/env node
import { ConfigError, loadConfig } from './config.js'
import { startServer } from './start-server.js'

const USAGE = `Usage: engram <command>

Commands:
  serve     run the REST server (configuration from environment variables; see README)
`

async function serve(): Promise<void> {
  const config = loadConfig()
  const server = await startServer(config)
  server.app.log.info(
    `Engram ${config.version} listening on ${server.url} (storage: ${config.storage}, data: ${config.dataDir})`,
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
}

async function main(argv: string[]): Promise<void> {
  const [command] = argv
  if (command === 'serve') return serve()
  process.stdout.write(USAGE)
  process.exitCode = command === undefined || command === 'help' || command === '--help' ? 0 : 2
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`engram: configuration error: ${error.message}\n`)
  } else {
    process.stderr.write(
      `engram: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    )
  }
  process.exit(1)
})
