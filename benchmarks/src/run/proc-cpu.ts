import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

let ticksPerSecond: number | undefined

/** USER_HZ, the unit of the times in /proc stat files (100 on every mainstream Linux build). */
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond =
        Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
    } catch {
      ticksPerSecond = 100
    }
  }
  return ticksPerSecond
}

/**
 * CPU time (user + system, ms) from a procfs stat file (fields 14 and 15, `utime` and `stime`;
 * proc(5)); null where there is no such file (not Linux, or the process is gone). Its resolution is one
 * clock tick (10 ms), so it is meant for differences over seconds of work, not single requests.
 */
function statCpuMs(path: string): number | null {
  let stat: string
  try {
    stat = readFileSync(path, 'utf8')
  } catch {
    return null
  }
  // The command name (field 2) may contain spaces; utime and stime are the 12th and 13th fields after
  // the closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticks = Number(fields[11]) + Number(fields[12])
  return Number.isFinite(ticks) ? (ticks * 1000) / clockTicks() : null
}

/** CPU time (every thread, ms) another process has used so far, from /proc/<pid>/stat. */
export function processCpuMs(pid: number): number | null {
  return statCpuMs(`/proc/${pid}/stat`)
}

/**
 * CPU time (ms) one thread of another process has used so far, from /proc/<pid>/task/<tid>/stat; its
 * main thread (the event loop) has tid = pid.
 */
export function threadCpuMs(pid: number, tid: number): number | null {
  return statCpuMs(`/proc/${pid}/task/${tid}/stat`)
}

/**
 * CPU time (ms) used so far by this process's main thread (the event loop; its thread id is the
 * process id). `process.cpuUsage()` counts every thread (worker threads, GC helpers), so the two
 * together show how much of the work left the event loop.
 */
export function mainThreadCpuMs(): number | null {
  return statCpuMs(`/proc/self/task/${process.pid}/stat`)
}

/** CPU time (user + system, ms) of every thread of this process since `since` (a `process.cpuUsage()`). */
export function cpuMsSince(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since)
  return (used.user + used.system) / 1000
}

/**
 * CPU time (ms) used so far by every live process whose command name (`comm`, proc(5)) is `command`, by
 * pid: e.g. `postgres` for a PostgreSQL server and all its backends. Empty where there is no /proc.
 */
export function commandCpuByPid(command: string): Map<number, number> {
  const cpu = new Map<number, number>()
  let pids: string[]
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name))
  } catch {
    return cpu
  }
  for (const pid of pids) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== command) continue
    } catch {
      continue
    }
    const ms = statCpuMs(`/proc/${pid}/stat`)
    if (ms !== null) cpu.set(Number(pid), ms)
  }
  return cpu
}

/**
 * CPU time (ms) used between two `commandCpuByPid` snapshots: processes started in between count from
 * zero; those that exited in between are left out (their time went with them), so it is a lower bound
 * when processes come and go.
 */
export function cpuDeltaMs(
  before: ReadonlyMap<number, number>,
  after: ReadonlyMap<number, number>,
): number {
  let total = 0
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0)
  return total
}
