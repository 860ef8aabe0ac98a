export {
  consoleAssets,
  CONSOLE_BUNDLE_DIR,
  CONSOLE_ROOT,
  type ConsoleAsset,
} from './console-assets.js'
export { bundleConsole, writeConsoleBundle, CONSOLE_FILES } from './bundle-console.js'
