/**
 * Every read endpoint of one brain, asked in the ways a user could find a word again: the retrieval
 * routes queried with the word itself and about a named entity, every list route read to its end, and
 * each listed task, changelog entry, observation, structured record and source read one by one. For
 * the forgetting checks (issue 26, "How it will be checked"): a forgotten word must be in none of the
 * answers.
 */

/** One answer: what was asked (`label`), its HTTP status and its body as text. */
export interface EndpointAnswer {
  readonly label: string
  readonly status: number
  readonly body: string
}

export interface SweepTarget {
  readonly url: string
  readonly headers: Record<string, string>
  /** The word looked for, used as a query wherever a route takes one. */
  readonly word: string
  /** Entities the graph routes are asked about: names and uuids (remembered from before a forget). */
  readonly entities: readonly string[]
}

/** Largest page of the list routes (`pagination` in packages/server/src/schemas/common.ts). */
const PAGE = 1000

/** Reads `stream` after seq 0 until `count` events came, then leaves. */
async function readChangelogStream(target: SweepTarget, count: number): Promise<EndpointAnswer> {
  const stop = new AbortController()
  const response = await fetch(`${target.url}/retrieve/changelogs/stream?after=0`, {
    headers: target.headers,
    signal: stop.signal,
  })
  let body = ''
  let events = 0
  if (response.body !== null && count > 0) {
    const decoder = new TextDecoder()
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      body += decoder.decode(chunk, { stream: true })
      events = (body.match(/^data: /gm) ?? []).length
      if (events >= count) break
    }
  }
  stop.abort()
  return { label: 'GET /retrieve/changelogs/stream?after=0', status: response.status, body }
}

/** Every answer of the brain's read endpoints (see the file's comment); none is skipped on error. */
export async function readEveryEndpoint(target: SweepTarget): Promise<EndpointAnswer[]> {
  const { url, headers, word } = target
  const answers: EndpointAnswer[] = []
  const ask = async (label: string, path: string, init?: { body: unknown }) => {
    const response = await fetch(`${url}${path}`, {
      method: init === undefined ? 'GET' : 'POST',
      headers: {
        ...headers,
        ...(init === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(init === undefined ? {} : { body: JSON.stringify(init.body) }),
    })
    const body = await response.text()
    answers.push({ label, status: response.status, body })
    return response.ok ? (JSON.parse(body) as Record<string, unknown>) : {}
  }
  const q = encodeURIComponent

  // Retrieval, asked with the word.
  await ask('GET /retrieve/search', `/retrieve/search?query=${q(word)}`)
  const everyChannel = ['passages', 'entities', 'events', 'communities']
  await ask('POST /retrieve/search, every channel', '/retrieve/search', {
    body: { query: word, k: 100, channels: everyChannel },
  })
  await ask('POST /retrieve/search, expand=neighbors', '/retrieve/search', {
    body: { query: word, k: 100, channels: everyChannel, expand: 'neighbors' },
  })
  await ask('GET /retrieve/', `/retrieve/?text=${q(word)}&preferred_entities=&limit=100`)
  await ask('POST /retrieve/context', '/retrieve/context', {
    body: { text: `What do you know about ${word}?`, max_facts: 500, max_passages: 100 },
  })
  await ask('GET /retrieve/hops', `/retrieve/hops?query=${q(word)}&degrees=3`)
  await ask('GET /retrieve/entity/status (the word)', `/retrieve/entity/status?target=${q(word)}`)
  await ask('GET /retrieve/entity/context (the word)', `/retrieve/entity/context?target=${q(word)}`)

  // The graph routes, about each remembered entity.
  for (const entity of target.entities) {
    const e = q(entity)
    await ask(`GET /retrieve/entity/status ${entity}`, `/retrieve/entity/status?target=${e}`)
    await ask(
      `GET /retrieve/entity/context ${entity}`,
      `/retrieve/entity/context?target=${e}&context_depth=5`,
    )
    await ask(
      `GET /retrieve/entity/info ${entity}`,
      `/retrieve/entity/info?target=${e}&query=${q(word)}`,
    )
    await ask(`GET /retrieve/entity/synergies ${entity}`, `/retrieve/entity/synergies?target=${e}`)
    await ask(`GET /retrieve/recommend ${entity}`, `/retrieve/recommend?target=${e}`)
    await ask(`GET /retrieve/hops ${entity}`, `/retrieve/hops?query=${e}&degrees=3`)
    await ask(
      `GET /retrieve/entities/neighbors ${entity}`,
      `/retrieve/entities/neighbors?uuid=${e}&limit=100&look_for=${q(word)}`,
    )
    await ask(
      `GET /retrieve/ preferring ${entity}`,
      `/retrieve/?text=${q(word)}&preferred_entities=${e}&limit=100`,
    )
  }

  // Every list route, to its end, and each listed record on its own.
  const list = async (label: string, path: string, key: string) => {
    const items: Record<string, unknown>[] = []
    for (let skip = 0; ; skip += PAGE) {
      const sep = path.includes('?') ? '&' : '?'
      const page = await ask(`${label} skip=${skip}`, `${path}${sep}limit=${PAGE}&skip=${skip}`)
      const got = (page[key] ?? []) as Record<string, unknown>[]
      items.push(...got)
      if (got.length < PAGE) return items
    }
  }
  await list('GET /retrieve/entities', '/retrieve/entities', 'entities')
  await list('GET /retrieve/relationships', '/retrieve/relationships', 'relationships')
  const observations = await list(
    'GET /retrieve/observations',
    '/retrieve/observations',
    'observations',
  )
  for (const o of observations)
    await ask(
      `GET /retrieve/observations/${String(o.id)}`,
      `/retrieve/observations/${q(String(o.id))}`,
    )
  await ask('GET /retrieve/observations/labels', '/retrieve/observations/labels')
  const structured = await list(
    'GET /retrieve/structured-data',
    '/retrieve/structured-data',
    'data',
  )
  for (const s of structured)
    await ask(
      `GET /retrieve/structured-data/${String(s.id)}`,
      `/retrieve/structured-data/${q(String(s.id))}`,
    )
  await ask('GET /retrieve/structured-data/types', '/retrieve/structured-data/types')
  const changelogs = await list('GET /retrieve/changelogs', '/retrieve/changelogs', 'changelogs')
  for (const c of changelogs)
    await ask(`GET /retrieve/changelogs/${String(c.id)}`, `/retrieve/changelogs/${q(String(c.id))}`)
  await ask('GET /retrieve/changelogs/types', '/retrieve/changelogs/types')
  answers.push(await readChangelogStream(target, changelogs.length))
  const sources = await list('GET /sources', '/sources', 'sources')
  for (const s of sources)
    await ask(
      `GET /sources/${String(s.source_id)}`,
      `/sources/${q(String(s.source_id))}?limit=${PAGE}`,
    )
  const tasks = await list('GET /tasks/', '/tasks/', 'tasks')
  for (const t of tasks) await ask(`GET /tasks/${String(t.id)}`, `/tasks/${q(String(t.id))}`)
  await ask('GET /meta/entity-labels', '/meta/entity-labels')
  await ask('GET /meta/entity-properties', '/meta/entity-properties')
  await ask('GET /meta/relationships-properties', '/meta/relationships-properties')
  return answers
}
