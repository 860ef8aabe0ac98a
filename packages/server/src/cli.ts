#!/usr/bin/env node
import { parseArgs } from 'node:util'
import { ingestCommand } from './cli/ingest-command.js'
import { EngramError } from '@engram/client'
import { cliClient, clientOptions } from './cli/cli-client.js'
import { searchCommand } from './cli/search-command.js'
import { ConfigError, loadConfig } from './config.js'
import { startServer } from './start-server.js'

const USAGE = `Usage: engram <command> [options]

Commands:
  serve                  run the REST server (configuration from environment variables; see README)
  ingest <files...>      send files to a running server (POST /ingest/file, one task each) and wait
                         for them with a progress bar
      --meta '<json>'    meta_keys stored on every passage of these files
      --no-wait          print the task ids and return at once
  search <query>         search a running server (GET /retrieve/search)
      -k <n>             number of hits (default 10)
      --channels <csv>   e.g. passages,entities,events
      --json             print the whole response

Client options (ingest, search):
  --url <url>            server root (default ENGRAM_URL, else http://HOST:PORT/BASE_PATH)
  --token <token>        system or brain token (default ENGRAM_TOKEN, else SERVICEPAT_TOKEN)
  --brain <id>           brain to use (X-Brain-ID)
`

async function serve(): Promise<number> {
  const config = loadConfig()
  const server = await startServer(config)
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
  return 0
}

class UsageError extends Error {}

function parseClientArgs(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        token: { type: 'string' },
        brain: { type: 'string' },
        meta: { type: 'string' },
        'no-wait': { type: 'boolean' },
        k: { type: 'string', short: 'k' },
        channels: { type: 'string' },
        json: { type: 'boolean' },
      },
    })
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
}

async function client(command: 'ingest' | 'search', args: string[]): Promise<number> {
  const { values, positionals } = parseClientArgs(args)
  const flags = {
    ...(values.url !== undefined ? { url: values.url } : {}),
    ...(values.token !== undefined ? { token: values.token } : {}),
    ...(values.brain !== undefined ? { brain: values.brain } : {}),
  }
  const options = cliClient(clientOptions(flags, process.env))
  const out = (line: string) => process.stdout.write(`${line}\n`)
  if (command === 'ingest') {
    if (positionals.length === 0) throw new UsageError('ingest needs at least one file')
    let metaKeys: Record<string, unknown> | undefined
    if (values.meta !== undefined) {
      try {
        metaKeys = JSON.parse(values.meta) as Record<string, unknown>
      } catch {
        throw new UsageError('--meta must be a JSON object')
      }
      if (metaKeys === null || typeof metaKeys !== 'object' || Array.isArray(metaKeys))
        throw new UsageError('--meta must be a JSON object')
    }
    const tty = process.stderr.isTTY
    return ingestCommand({
      client: options,
      files: positionals,
      ...(metaKeys ? { metaKeys } : {}),
      wait: values['no-wait'] !== true,
      // On a terminal the bar redraws in place; in a pipe only the final state is printed.
      progress: (line, final) => {
        if (tty) process.stderr.write(`\r${line}${final ? '\n' : ''}`)
        else if (final) process.stderr.write(`${line}\n`)
      },
      out,
    })
  }
  const query = positionals.join(' ').trim()
  if (query === '') throw new UsageError('search needs a query')
  const k = values.k === undefined ? undefined : Number(values.k)
  if (k !== undefined && (!Number.isInteger(k) || k < 1 || k > 200))
    throw new UsageError('-k must be an integer from 1 to 200')
  return searchCommand({
    client: options,
    query,
    ...(k !== undefined ? { k } : {}),
    ...(values.channels !== undefined ? { channels: values.channels } : {}),
    json: values.json === true,
    out,
  })
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  if (command === 'serve') return serve()
  if (command === 'ingest' || command === 'search') return client(command, rest)
  process.stdout.write(USAGE)
  return command === undefined || command === 'help' || command === '--help' ? 0 : 2
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    if (error instanceof ConfigError) {
      process.stderr.write(`engram: configuration error: ${error.message}\n`)
    } else if (error instanceof UsageError) {
      process.stderr.write(`engram: ${error.message}\n\n${USAGE}`)
      process.exit(2)
    } else if (error instanceof EngramError) {
      const resolution =
        error.code === 'NETWORK_ERROR'
          ? 'Start the server with `npm start`, or pass --url.'
          : error.resolution
      process.stderr.write(
        `engram: ${error.code}: ${error.message}${resolution ? `\n  ${resolution}` : ''}\n`,
      )
    } else {
      process.stderr.write(
        `engram: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      )
    }
    process.exit(1)
  },
)
