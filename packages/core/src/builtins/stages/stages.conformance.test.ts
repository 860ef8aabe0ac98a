import { runStageSuite } from '../../../testing/index.js'
import { denseRerank } from './dense-rerank.js'
import { neighbourExpansion } from './neighbour-expansion.js'
import { personalization } from './personalization.js'
import { hopCoverage, queryCoverage } from './query-coverage.js'

// Every built-in stage passes the suite third-party stages run. Expansion and personalization are
// placed by the pipeline itself (`expand`, `target`), not registered by name.
runStageSuite({ create: denseRerank, register: false, embedder: true })
runStageSuite({ create: queryCoverage, register: false })
runStageSuite({ create: hopCoverage, register: false })
runStageSuite({ create: neighbourExpansion, register: false, request: { expand: 'neighbors' } })
runStageSuite({
  create: personalization,
  register: false,
  request: { target: 'Alice' },
  target: 'Alice',
})
