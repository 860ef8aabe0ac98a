import type { EngramClient } from '@engram/client'

export interface SearchCommandOptions {
  client: EngramClient
  query: string
  k?: number
  /** csv, e.g. `passages,entities`. */
  channels?: string
  json?: boolean
  out: (line: string) => void
}

/** `engram search <query>`: `GET /retrieve/search`, printed one hit per line (or the raw JSON). */
export async function searchCommand(options: SearchCommandOptions): Promise<number> {
  const response = await options.client.GET('/retrieve/search', {
    params: {
      query: {
        query: options.query,
        k: options.k ?? 10,
        ...(options.channels ? { channels: options.channels } : {}),
      },
    },
  })
  if (options.json) {
    options.out(JSON.stringify(response, null, 2))
    return 0
  }
  if (response.hits.length === 0) options.out('no hits')
  response.hits.forEach((hit, i) => {
    options.out(
      `${String(i + 1).padStart(2)}. ${hit.score.toFixed(4)} ${hit.channel} ${hit.labels.join(',')} ${hit.id}`,
    )
    options.out(`    ${hit.snippet.replace(/\s+/g, ' ')}`)
  })
  return 0
}
