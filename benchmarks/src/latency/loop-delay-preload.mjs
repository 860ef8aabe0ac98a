// Bench-only preload (`node --import <this file> cli.js serve`): measures the server's event-loop delay
// with perf_hooks.monitorEventLoopDelay without any change to the server. On SIGUSR2 it writes the delays
// since the previous SIGUSR2 (ms) as one JSON line to ENGRAM_BENCH_LOOP_DELAY_FILE and starts afresh, so
// the benchmark can read each phase of a run on its own. A stalled loop answers the signal late; the
// file's `seq` tells the reader which request it answers.
import { appendFileSync } from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import process from 'node:process'

const file = process.env.ENGRAM_BENCH_LOOP_DELAY_FILE
if (file) {
  // 5 ms sampling: finer than the 50 ms target, coarse enough to cost nothing measurable.
  const histogram = monitorEventLoopDelay({ resolution: 5 })
  histogram.enable()
  let seq = 0
  process.on('SIGUSR2', () => {
    const ms = (ns) => ns / 1e6
    appendFileSync(
      file,
      JSON.stringify({
        seq: ++seq,
        count: histogram.count,
        mean: ms(histogram.mean),
        p50: ms(histogram.percentile(50)),
        p99: ms(histogram.percentile(99)),
        max: ms(histogram.max),
        // Share of samples with a delay above 20 ms: how often the loop was that long busy.
        over20: histogram.count === 0 ? 0 : countAbove(histogram, 20e6),
      }) + '\n',
    )
    histogram.reset()
  })
}

/** Share of samples whose delay exceeded `ns` (from the histogram's percentiles, 0.1-point steps). */
function countAbove(histogram, ns) {
  for (let i = 1; i <= 1000; i++)
    if (histogram.percentile(i / 10) > ns) return (1000 - i + 1) / 1000
  return 0
}
