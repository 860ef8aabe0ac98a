import { createEngram, EngramError } from '@engram/core'
import { sqliteStorage } from '@engram/adapter-sqlite'

// SQLite files under ./engram-data; the offline embedder and extractor start on first use.
const engram = await createEngram({ storage: sqliteStorage({ dir: './engram-data' }) })

try {
  const task = await engram.ingest.text(
    'Ada Lovelace worked with Charles Babbage on the Analytical Engine in London in 1843.',
  )
  const finished = await task.done() // resolves once the task has run; rejects if it failed
  console.log('task', finished.status, JSON.stringify(finished.result))

  const { hits } = await engram.search('Who worked on the Analytical Engine?', { k: 3 })
  for (const hit of hits) console.log('hit', hit.score.toFixed(3), hit.snippet)

  const { neighbors } = await engram.graph.neighbors({ name: 'Ada Lovelace' }, { limit: 5 })
  for (const n of neighbors) console.log('neighbour', n.neighbor.name, `(${n.relationship.name})`)

  await engram.search('Babbage', { k: 500 }) // over the limit of 200: throws
} catch (error) {
  if (!(error instanceof EngramError)) throw error
  console.log('error', error.code, error.message)
} finally {
  await engram.close()
}
