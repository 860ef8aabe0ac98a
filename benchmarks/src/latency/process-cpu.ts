import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

let ticksPerSecond: number | undefined

/** USER_HZ, the unit of the times in /proc/<pid>/stat (100 on every mainstream Linux build). */
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
 * CPU time (user + system, every thread) another process has used so far, in ms, read from
 * /proc/<pid>/stat; null where there is no /proc (not Linux) or the process is gone. Its resolution is
 * one clock tick (10 ms), so it is meant for differences over seconds of load, not single requests.
 */
export function processCpuMs(pid: number): number | null {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return null
  }
  // The command name (field 2) may contain spaces; utime and stime are fields 14 and 15, the 12th and
  // 13th after the closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const ticks = Number(fields[11]) + Number(fields[12])
  return Number.isFinite(ticks) ? (ticks * 1000) / clockTicks() : null
}
