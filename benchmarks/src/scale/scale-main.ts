import { printResult } from '../run/tsx-child.js'
import { openStartupBrain, seedStartupBrain, type StartupMode } from './measure-startup.js'
import { measureScalePoint } from './scale-point.js'

/**
 * Child entry of the scale curve (one fresh process per measurement, so resident memory and JIT state do
 * not leak between points):
 *   scale-main.ts point <system> <size>
 *   scale-main.ts startup-seed <data dir> <size>
 *   scale-main.ts startup-open <data dir> snapshot|vectors-only|rebuild
 */
const [command, a, b] = process.argv.slice(2)
switch (command) {
  case 'point':
    printResult(await measureScalePoint(a!, Number(b)))
    break
  case 'startup-seed':
    printResult(await seedStartupBrain(a!, Number(b)))
    break
  case 'startup-open':
    printResult(await openStartupBrain(a!, b as StartupMode))
    break
  default:
    throw new Error(`scale-main: unknown command '${command}'`)
}
