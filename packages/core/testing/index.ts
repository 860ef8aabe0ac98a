export {
  runStorageAdapterSuite,
  type StorageAdapterSuiteOptions,
  type SuiteSkip,
} from './storage-adapter-suite.js'
export { fixtures } from './fixtures.js'
export { minimalPdf } from './minimal-pdf.js'
export { runChannelSuite, type ChannelSuiteOptions } from './channel-suite.js'
export { runFusionSuite, type FusionSuiteOptions } from './fusion-suite.js'
export {
  hashingTestEmbedder,
  searchCorpus,
  searchCorpusBatch,
  type SearchCorpus,
} from './search-corpus.js'
export { runStageSuite, type StageSuiteOptions } from './stage-suite.js'
export { conditionWaiter } from './condition-waiter.js'
