import { printResult } from '../run/tsx-child.js'
import { calibrateIndexBytes } from './calibrate-index-bytes.js'
import { seedManyBrains } from './seed-many-brains.js'
import { serveManyBrains } from './serve-many-brains.js'

/**
 * Child entry of the many-brains benchmark (a fresh process each, so that resident memory is this
 * step's alone):
 *   many-brains-main.ts seed <data dir> <datasets dir> <brains> <passages> <embedder> <dimension>
 *   many-brains-main.ts serve <data dir> <datasets dir> <brains> <passages> <budget MB>
 *   many-brains-main.ts calibrate <datasets dir> <passages>
 */
const [command, ...args] = process.argv.slice(2)
const log = (line: string) => process.stderr.write(`${line}\n`)
switch (command) {
  case 'seed': {
    const [dataDir, datasetsDir, brains, passages, name, dimension] = args
    printResult(
      await seedManyBrains(
        dataDir!,
        datasetsDir!,
        { brains: Number(brains), passages: Number(passages) },
        { name: name!, dimension: Number(dimension) },
        log,
      ),
    )
    break
  }
  case 'serve': {
    const [dataDir, datasetsDir, brains, passages, budgetMb] = args
    printResult(
      await serveManyBrains(
        dataDir!,
        datasetsDir!,
        { brains: Number(brains), passages: Number(passages) },
        Number(budgetMb),
        log,
      ),
    )
    break
  }
  case 'calibrate':
    printResult(await calibrateIndexBytes(args[0]!, Number(args[1])))
    break
  default:
    throw new Error(`many-brains-main: unknown command '${command}'`)
}
process.exit(0)
