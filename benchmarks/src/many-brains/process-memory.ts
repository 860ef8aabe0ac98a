import { readFileSync, writeFileSync } from 'node:fs'

const MB = 2 ** 20

/**
 * The process's resident set: current, and its peak since the last `resetPeak` (Linux `VmHWM`, which the
 * kernel keeps exactly, so no sample can miss a spike). Elsewhere the peak is the largest of the samples
 * taken with `sample()`.
 */
export class ProcessMemory {
  private sampled = 0
  private exactPeak = true

  /** Resident set now, MB. */
  rssMb(): number {
    const rss = process.memoryUsage.rss() / MB
    this.sampled = Math.max(this.sampled, rss)
    return rss
  }

  /** Starts a new peak (writes `5` to `/proc/self/clear_refs`). */
  resetPeak(): void {
    this.sampled = 0
    try {
      writeFileSync('/proc/self/clear_refs', '5')
      this.exactPeak = true
    } catch {
      this.exactPeak = false
    }
  }

  /** Peak resident set since `resetPeak`, MB, and where it comes from. */
  peakMb(): { mb: number; source: 'VmHWM' | 'sampled' } {
    this.rssMb()
    if (this.exactPeak) {
      try {
        const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]
        if (kb !== undefined)
          return { mb: Math.max(Number(kb) / 1024, this.sampled), source: 'VmHWM' }
      } catch {
        // Not Linux: the samples are all there is.
      }
    }
    return { mb: this.sampled, source: 'sampled' }
  }
}
