import { printResult } from '../run/tsx-child.js'
import { openPostgresBrain, seedPostgresBrain, writePostgresTail } from './postgres-startup.js'
import type { PostgresStartMode } from './startup-postgres-result.js'

/**
 * Child entry of `--startup-postgres` (one fresh process per step, run as built JavaScript):
 *   postgres-startup-main.js seed <db url> <snapshot dir> <seeded> <total>
 *   postgres-startup-main.js tail <db url> <seeded> <total>
 *   postgres-startup-main.js open <db url> <snapshot dir|none> snapshot|tail|rebuild [save]
 */
const [command, url, a, b, c] = process.argv.slice(2)
switch (command) {
  case 'seed':
    printResult(await seedPostgresBrain(url!, a!, Number(b), Number(c)))
    break
  case 'tail':
    printResult(await writePostgresTail(url!, Number(a), Number(b)))
    break
  case 'open':
    printResult(
      await openPostgresBrain(
        url!,
        a === 'none' ? undefined : a,
        b as PostgresStartMode,
        c === 'save',
      ),
    )
    break
  default:
    throw new Error(`postgres-startup-main: unknown command '${command}'`)
}
