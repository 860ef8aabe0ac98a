import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Modes of what Engram writes in its data directory, which holds every brain's data: owner only.
 *
 * Each mode is set where the file or directory is created (`mkdir` and `open` take one), never through
 * `process.umask`: the umask is process-wide, so changing it around one open would race with files
 * other threads create meanwhile (libuv's pool writing snapshots, worker threads), and worker threads
 * cannot change it at all.
 */
export const PRIVATE_DIR_MODE = 0o700
export const PRIVATE_FILE_MODE = 0o600

/** `mkdir -p` where every directory it creates is 0700. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
}

/**
 * Creates `path` empty, mode 0600, when it does not exist; an existing file is left as it is. SQLite
 * opens an existing file without changing its mode and gives the `-wal`, `-shm` and journal files it
 * creates the database file's mode, so creating the database file first keeps all of them private.
 */
export function createPrivateFile(path: string): void {
  closeSync(openSync(path, 'a', PRIVATE_FILE_MODE))
}

/**
 * Removes group and other permissions from `path` and, for a directory, from everything under it
 * unless `recursive` is false (symbolic links are not followed): for data an older version wrote
 * without setting modes.
 * Never adds a permission. A missing path is skipped. Returns the paths whose mode could not be
 * changed (another owner, a read-only or permission-less file system) for the caller to report: the
 * data stays usable, so that is no reason to refuse to start. Does nothing on Windows, where modes
 * are not Unix permissions.
 */
export function tightenModes(path: string, { recursive = true } = {}): string[] {
  if (process.platform === 'win32') return []
  const failed: string[] = []
  const visit = (p: string) => {
    let stat
    try {
      stat = lstatSync(p)
    } catch {
      return
    }
    if (stat.isSymbolicLink()) return
    if ((stat.mode & 0o077) !== 0) {
      try {
        chmodSync(p, stat.mode & 0o700)
      } catch {
        failed.push(p)
      }
    }
    if (stat.isDirectory() && recursive) {
      let names: string[] = []
      try {
        names = readdirSync(p)
      } catch {
        failed.push(p)
      }
      for (const name of names) visit(join(p, name))
    }
  }
  visit(path)
  return failed
}
