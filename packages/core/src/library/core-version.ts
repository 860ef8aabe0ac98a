import { readFileSync } from 'node:fs'

/**
 * The version of @engram/core, from its package.json: two folders up from this file in the sources
 * (`src/library/`), three when built (`dist/src/library/`). '0.0.0' if it cannot be read (a bundler
 * that left package.json behind): it only labels records (`brainVersion`).
 */
export function coreVersion(): string {
  const built = import.meta.url.includes('/dist/src/')
  try {
    const url = new URL(built ? '../../../package.json' : '../../package.json', import.meta.url)
    const pkg = JSON.parse(readFileSync(url, 'utf8')) as { name?: string; version?: string }
    return pkg.name === '@engram/core' && typeof pkg.version === 'string' ? pkg.version : '0.0.0'
  } catch {
    return '0.0.0'
  }
}
