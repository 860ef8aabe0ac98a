import { startConsole } from './console-app.js'
import { serverRoot } from './server-root.js'

/** Entry of the browser bundle. */
startConsole(document.getElementById('app')!, serverRoot(location.href))
