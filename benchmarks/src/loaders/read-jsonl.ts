import { readFileSync } from 'node:fs'

/** Parses a JSON Lines file (one object per non-empty line), naming the line on a parse error. */
export function readJsonl<T>(path: string): T[] {
  const out: T[] = []
  const lines = readFileSync(path, 'utf8').split('\n')
  lines.forEach((line, i) => {
    if (line.trim() === '') return
    try {
      out.push(JSON.parse(line) as T)
    } catch (err) {
      throw new Error(`${path}:${i + 1}: invalid JSON (${(err as Error).message})`)
    }
  })
  return out
}
