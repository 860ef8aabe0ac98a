export { memoryAdapter } from './memory-adapter.js'
