export { llmExtractor, type LlmExtractorOptions } from './llm-extractor.js'
export { ENTITY_LABELS, extractionJsonSchema } from './extraction-output.js'
