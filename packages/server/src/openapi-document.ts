import { createEngine, memoryAdapter } from '@engram/core'
import { buildApp } from './app.js'
import { packageVersion } from './config.js'

/** The OpenAPI 3.1 document as the routes describe it, serialised deterministically. */
export async function generateOpenApi(): Promise<string> {
  const engram = createEngine({ storage: memoryAdapter(), version: packageVersion() })
  const app = await buildApp({ engram })
  try {
    return `${JSON.stringify(app.swagger(), null, 2)}\n`
  } finally {
    await app.close()
  }
}
