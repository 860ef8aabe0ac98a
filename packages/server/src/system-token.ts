import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  generateToken,
  hashToken,
  makePrivateDir,
  PRIVATE_FILE_MODE,
  tightenModes,
} from '@engram/core'

export const SYSTEM_TOKEN_FILE = 'system-token.sha256'

export interface SystemTokenResult {
  hash: string
  /** Set only when a token was generated now: print it once, never store or log it. */
  generated: string | null
}

/**
 * The system token: `SERVICEPAT_TOKEN` when set; otherwise generated on first start, returned once
 * for printing, and kept only as its SHA-256 hash in the data directory (file mode 0600, directory
 * 0700; a file an older version wrote is tightened).
 */
export function resolveSystemToken(
  dataDir: string,
  fromEnv: string | undefined,
): SystemTokenResult {
  if (fromEnv !== undefined) return { hash: hashToken(fromEnv), generated: null }
  const file = join(dataDir, SYSTEM_TOKEN_FILE)
  if (existsSync(file)) {
    if (tightenModes(file).length > 0)
      process.emitWarning(`Could not restrict ${file} to its owner (0600).`, {
        code: 'ENGRAM_LOOSE_PERMISSIONS',
      })
    const hash = readFileSync(file, 'utf8').trim()
    if (!/^[0-9a-f]{64}$/.test(hash))
      throw new Error(
        `${file} is not a SHA-256 hex digest; delete it to generate a new system token.`,
      )
    return { hash, generated: null }
  }
  makePrivateDir(dataDir)
  const token = generateToken()
  const hash = hashToken(token)
  writeFileSync(file, `${hash}\n`, { mode: PRIVATE_FILE_MODE })
  chmodSync(file, PRIVATE_FILE_MODE)
  return { hash, generated: token }
}
