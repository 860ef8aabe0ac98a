export { transformersEmbedder, type TransformersEmbedderOptions } from './transformers-embedder.js'
