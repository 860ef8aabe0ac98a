import { parseArgs } from 'node:util'
import { cliClient, clientOptions } from './cli-client.js'
import { UsageError } from './cli-usage.js'
import { ingestCommand } from './ingest-command.js'
import { searchCommand } from './search-command.js'

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

/** `engram ingest <files...>` and `engram search <query>`: calls to a running server. */
export async function clientCommand(command: 'ingest' | 'search', args: string[]): Promise<number> {
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
