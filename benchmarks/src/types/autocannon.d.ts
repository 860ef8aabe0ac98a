// Minimal types for autocannon 8 (it ships none and @types/autocannon is not installed): only what
// latency/http-scenarios.ts uses.
declare module 'autocannon' {
  interface RawRequest {
    method?: string
    path?: string
    headers?: Record<string, string>
    body?: string
  }
  interface RequestSpec extends RawRequest {
    /** Mutates the request before each send; returning a falsy value restarts the sequence. */
    setupRequest?: (request: RawRequest, context: Record<string, unknown>) => RawRequest
  }
  interface Options {
    url: string
    method?: string
    headers?: Record<string, string>
    body?: string
    duration?: number
    connections?: number
    requests?: RequestSpec[]
  }
  interface Histogram {
    average: number
    mean: number
    total: number
    p50: number
    p90: number
    p99: number
    max: number
  }
  interface Result {
    requests: Histogram
    latency: Histogram
    duration: number
    errors: number
    timeouts: number
    non2xx: number
    statusCodeStats: Record<string, { count: number }>
  }
  function autocannon(options: Options): Promise<Result>
  export default autocannon
}
