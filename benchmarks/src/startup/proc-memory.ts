import { readdirSync, readFileSync } from 'node:fs'

/** Resident memory of one process, MB (MiB), as the kernel accounts it. */
export interface ProcMemory {
  /** `VmRSS`: resident now. */
  readonly rssMb: number
  /** `VmHWM`: the peak resident set since the process started (kept by the kernel, so no spike is missed). */
  readonly hwmMb: number
}

function statusField(status: string, field: string): number {
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]
  if (kb === undefined) throw new Error(`no ${field} in /proc status (is the process a zombie?)`)
  return Number(kb) / 1024
}

/**
 * `VmRSS` and `VmHWM` of another process from `/proc/<pid>/status`. Linux only: the start-up benchmark
 * reports the server's memory from outside, as `ps` would, not from the server's own account.
 */
export function readProcMemory(pid: number): ProcMemory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return { rssMb: statusField(status, 'VmRSS'), hwmMb: statusField(status, 'VmHWM') }
}

/**
 * Every live descendant of `pid` (children, grandchildren, ...), from the parent pid in `/proc/<n>/stat`.
 * The server should start none (worker threads are threads, not processes); the old `npm start` left six
 * esbuild processes behind, so the benchmark counts them.
 */
export function descendantPids(pid: number): number[] {
  const parents = new Map<number, number>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      // `pid (comm) state ppid ...`: comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      parents.set(Number(name), ppid)
    } catch {
      // The process ended while the list was read.
    }
  }
  const found: number[] = []
  const queue = [pid]
  while (queue.length > 0) {
    const parent = queue.shift()!
    for (const [child, ppid] of parents) {
      if (ppid === parent) {
        found.push(child)
        queue.push(child)
      }
    }
  }
  return found
}
