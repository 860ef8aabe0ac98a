export { CHROMIUM_PATH, launchChromium } from './launch-chromium.js'
