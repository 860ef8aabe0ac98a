export { buildApp, type BuildAppOptions } from './app.js'
export { createDemoRateLimiter, type DemoRateLimiter } from './plugins/demo-rate-limit.js'
export { loadConfig, ConfigError, type ServerConfig } from './config.js'
export { startServer, type RunningServer } from './start-server.js'
export { resolveSystemToken } from './system-token.js'
export { generateOpenApi } from './openapi-document.js'
/** A JSON response's body as the server writes it (the latency suite compares it with JSON.stringify). */
export { jsonBody } from './json-body.js'
