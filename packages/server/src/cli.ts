#!/usr/bin/env node
import { USAGE } from './cli/cli-usage.js'

/**
 * `engram <command>`. Each command's module is imported only when it runs: `--help` loads nothing
 * else, the client commands never load the engine, and only `serve` loads the server.
 */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  if (command === 'serve') return (await import('./cli/serve-command.js')).serveCommand()
  if (command === 'ingest' || command === 'search' || command === 'sources' || command === 'forget')
    return (await import('./cli/client-command.js')).clientCommand(command, rest)
  process.stdout.write(USAGE)
  return command === undefined || command === 'help' || command === '--help' ? 0 : 2
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  async (error: unknown) => {
    const { reportCliError } = await import('./cli/cli-error.js')
    process.exit(reportCliError(error))
  },
)
