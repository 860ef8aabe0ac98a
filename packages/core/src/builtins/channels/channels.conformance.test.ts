import { runChannelSuite } from '../../../testing/index.js'

// Every built-in channel passes the suite third-party channels run, lexical-only and with an embedder.
runChannelSuite({ channel: 'passages', yields: 'passages' })
runChannelSuite({ channel: 'passages', yields: 'passages', embedder: true })
runChannelSuite({ channel: 'entities', yields: 'entities' })
runChannelSuite({ channel: 'entities', yields: 'entities', embedder: true })
runChannelSuite({ channel: 'events', yields: 'entities' })
runChannelSuite({ channel: 'communities', yields: 'entities' })
