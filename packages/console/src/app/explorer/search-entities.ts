import type { EngramClient, Entity } from '@engram/client'

/** Hits listed for a name search. */
export const SEARCH_LIMIT = 20

/** Entities whose name contains `text` (case-insensitive; `GET /retrieve/entities?query_text=`). */
export async function searchEntities(
  client: EngramClient,
  text: string,
  signal?: AbortSignal,
): Promise<Entity[]> {
  const page = await client.GET('/retrieve/entities', {
    params: { query: { query_text: text, limit: SEARCH_LIMIT } },
    ...(signal === undefined ? {} : { signal }),
  })
  return page.entities
}
