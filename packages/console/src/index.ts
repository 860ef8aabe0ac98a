export { consoleAssets, type ConsoleAsset } from './console-assets.js'
