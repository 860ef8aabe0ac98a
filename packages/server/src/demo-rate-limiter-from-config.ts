import type { Logger } from '@engram/core'
import { ConfigError, type ServerConfig } from './config.js'
import { createDemoRateLimiter, type DemoRateLimiter } from './plugins/demo-rate-limit.js'

/** A demo limiter with the `close()` the server calls when it stops. */
export type ConfiguredDemoRateLimiter = DemoRateLimiter & { close(): Promise<void> }

/**
 * The limiter of `/demo/search`: shared by every process through Redis when `REDIS_URL` is set
 * (connected here, so a wrong or unreachable URL stops the start), else this process's own. The Redis
 * client is loaded only then.
 */
export async function demoRateLimiterFromConfig(
  config: Pick<ServerConfig, 'redisUrl'>,
  logger: Logger,
): Promise<ConfiguredDemoRateLimiter> {
  if (config.redisUrl === undefined) return { ...createDemoRateLimiter(), close: async () => {} }
  const { createRedisDemoRateLimiter } = await import('./plugins/redis-demo-rate-limit.js')
  try {
    const limiter = createRedisDemoRateLimiter({ url: config.redisUrl, logger })
    await limiter.connect()
    return limiter
  } catch (error) {
    // The message names the URL without its credentials; the cause may hold them.
    throw new ConfigError(error instanceof Error ? error.message : String(error))
  }
}
