import { parseArgs } from 'node:util'
import { cliClient, clientOptions } from './cli-client.js'
import { UsageError } from './cli-usage.js'
import { forgetCommand } from './forget-command.js'
import { ingestCommand } from './ingest-command.js'
import { searchCommand } from './search-command.js'
import { sourcesCommand } from './sources-command.js'

/** The commands that call a running server through @engram/client. */
export const CLIENT_COMMANDS = ['ingest', 'search', 'sources', 'forget'] as const
export type ClientCommand = (typeof CLIENT_COMMANDS)[number]

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
        'source-id': { type: 'string' },
        wait: { type: 'boolean' },
        query: { type: 'string' },
        limit: { type: 'string' },
        k: { type: 'string', short: 'k' },
        channels: { type: 'string' },
        json: { type: 'boolean' },
      },
    })
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
}

function metaKeysOf(raw: string | undefined): Record<string, unknown> | undefined {
  if (raw === undefined) return undefined
  let metaKeys: unknown
  try {
    metaKeys = JSON.parse(raw)
  } catch {
    throw new UsageError('--meta must be a JSON object')
  }
  if (metaKeys === null || typeof metaKeys !== 'object' || Array.isArray(metaKeys))
    throw new UsageError('--meta must be a JSON object')
  return metaKeys as Record<string, unknown>
}

/** An integer flag within bounds, else a UsageError naming it. */
function intFlag(raw: string | undefined, name: string, max: number): number | undefined {
  if (raw === undefined) return undefined
  const value = Number(raw)
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw new UsageError(`${name} must be an integer from 1 to ${max}`)
  return value
}

/** `engram ingest|search|sources|forget`: calls to a running server. */
export async function clientCommand(command: ClientCommand, args: string[]): Promise<number> {
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
    const metaKeys = metaKeysOf(values.meta)
    const sourceId = values['source-id']
    if (sourceId !== undefined && positionals.length > 1)
      throw new UsageError('--source-id names one source: give it one file')
    const tty = process.stderr.isTTY
    return ingestCommand({
      client: options,
      files: positionals,
      ...(metaKeys ? { metaKeys } : {}),
      ...(sourceId !== undefined ? { sourceId } : {}),
      wait: values['no-wait'] !== true,
      // On a terminal the bar redraws in place; in a pipe only the final state is printed.
      progress: (line, final) => {
        if (tty) process.stderr.write(`\r${line}${final ? '\n' : ''}`)
        else if (final) process.stderr.write(`${line}\n`)
      },
      out,
    })
  }
  if (command === 'sources') {
    if (positionals.length > 0) throw new UsageError('sources takes no arguments; use --query')
    const limit = intFlag(values.limit, '--limit', 1000)
    return sourcesCommand({
      client: options,
      ...(values.query !== undefined ? { query: values.query } : {}),
      ...(limit !== undefined ? { limit } : {}),
      json: values.json === true,
      out,
    })
  }
  if (command === 'forget') {
    if (positionals.length !== 1) throw new UsageError('forget needs exactly one source id')
    return forgetCommand({
      client: options,
      sourceId: positionals[0]!,
      wait: values.wait === true,
      out,
    })
  }
  const query = positionals.join(' ').trim()
  if (query === '') throw new UsageError('search needs a query')
  const k = intFlag(values.k, '-k', 200)
  return searchCommand({
    client: options,
    query,
    ...(k !== undefined ? { k } : {}),
    ...(values.channels !== undefined ? { channels: values.channels } : {}),
    json: values.json === true,
    out,
  })
}
