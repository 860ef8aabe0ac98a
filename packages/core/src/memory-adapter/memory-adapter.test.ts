import { runStorageAdapterSuite } from '../../testing/index.js'
import { memoryAdapter } from './memory-adapter.js'

runStorageAdapterSuite({ name: 'memory', create: () => memoryAdapter() })
