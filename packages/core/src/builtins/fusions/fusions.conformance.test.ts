import { runFusionSuite } from '../../../testing/index.js'
import { convexCombination } from './convex-combination.js'
import { noFusion } from './no-fusion.js'
import { rrf } from './reciprocal-rank.js'

// Every built-in fusion passes the suite third-party fusions run.
runFusionSuite({ create: rrf })
runFusionSuite({ create: convexCombination, options: { alpha: 0.3 } })
runFusionSuite({ create: noFusion })
