import { runChannelSuite, runFusionSuite } from '@engram/core/testing'
import { combMnz } from './comb-mnz.js'
import { phraseChannel } from './phrase-channel.js'

// The template plugins pass the suites every channel and fusion runs (copy this file with them).
runChannelSuite({ channel: 'plugin:phrase', plugin: phraseChannel })
runFusionSuite({ create: combMnz })
