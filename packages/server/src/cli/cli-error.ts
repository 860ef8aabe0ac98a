import { EngramError } from '@engram/client'
import { ConfigError } from '../config.js'
import { USAGE, UsageError } from './cli-usage.js'

/** What the CLI prints for a failure that ended a command, and its exit code. */
export function reportCliError(error: unknown): number {
  if (error instanceof ConfigError) {
    process.stderr.write(`engram: configuration error: ${error.message}\n`)
  } else if (error instanceof UsageError) {
    process.stderr.write(`engram: ${error.message}\n\n${USAGE}`)
    return 2
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
  return 1
}
