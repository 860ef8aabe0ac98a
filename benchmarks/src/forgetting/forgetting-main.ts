import { printResult } from '../run/tsx-child.js'
import { measureForgetLatency } from './forget-latency.js'
import { measureNoGhosts, type GhostEmbedder } from './no-ghosts.js'

/**
 * Child entry of `--forgetting` (one fresh process per measurement, so resident memory and JIT
 * state do not leak from one into the next):
 *   forgetting-main.ts latency none|vectors <passages> <runs> <bulk>
 *   forgetting-main.ts ghosts <data dir> none|use-lite
 */
const [command, a, b, c, d] = process.argv.slice(2)
const log = (line: string) => process.stderr.write(`${line}\n`)
switch (command) {
  case 'latency':
    printResult(
      await measureForgetLatency(a as 'none' | 'vectors', Number(b), Number(c), Number(d)),
    )
    break
  case 'ghosts':
    printResult(await measureNoGhosts(a!, b as GhostEmbedder, log))
    break
  default:
    throw new Error(`forgetting-main: unknown command '${command}'`)
}
