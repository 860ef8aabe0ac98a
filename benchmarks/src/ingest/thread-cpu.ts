import { readFileSync } from 'node:fs'

/** Linux reports per-thread CPU in clock ticks of USER_HZ, which is 100 on every mainstream kernel build. */
const TICKS_PER_SECOND = 100

/**
 * CPU time (user + system, ms) used so far by this process's main thread, from
 * `/proc/self/task/<pid>/stat` (fields 14 and 15, `utime` and `stime`; proc(5)); the main thread's id
 * is the process id. Null where there is no procfs. `process.cpuUsage()` counts every thread (worker
 * threads, GC helpers), so the two together show how much of the work left the event loop. Resolution
 * is 10 ms: use it over runs of seconds.
 */
export function mainThreadCpuMs(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8')
    // The command name (field 2) may contain spaces; the fields after it are space-separated.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const ticks = Number(fields[11]) + Number(fields[12])
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_SECOND : null
  } catch {
    return null
  }
}

/** CPU time (user + system, ms) of every thread of this process since `since` (a `process.cpuUsage()`). */
export function processCpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since)
  return (used.user + used.system) / 1000
}
