import { callApi, type ClientOptions } from './rest-client.js'

interface SearchHitView {
  id: string
  channel: string
  labels: string[]
  score: number
  snippet: string
}

export interface SearchCommandOptions {
  client: ClientOptions
  query: string
  k?: number
  /** csv, e.g. `passages,entities`. */
  channels?: string
  json?: boolean
  out: (line: string) => void
}

/** `engram search <query>`: `GET /retrieve/search`, printed one hit per line (or the raw JSON). */
export async function searchCommand(options: SearchCommandOptions): Promise<number> {
  const params = new URLSearchParams({ query: options.query, k: String(options.k ?? 10) })
  if (options.channels) params.set('channels', options.channels)
  const response = await callApi<{ hits: SearchHitView[] }>(
    options.client,
    'GET',
    `/retrieve/search?${params}`,
  )
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
