export {
  runStorageAdapterSuite,
  type StorageAdapterSuiteOptions,
  type SuiteSkip,
} from './storage-adapter-suite.js'
export { fixtures } from './fixtures.js'
export { minimalPdf } from './minimal-pdf.js'
