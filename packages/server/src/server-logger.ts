import { Writable } from 'node:stream'
import type { FastifyServerOptions } from 'fastify'

/** How log lines are written: `json` (one object a line, for collectors) or `pretty` (for a person). */
export type LogFormat = 'json' | 'pretty'

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
}
const COLOURS: Record<number, string> = { 40: '\x1b[33m', 50: '\x1b[31m', 60: '\x1b[35m' }
/** pino's own fields, shown in the line's head or not at all. */
const HEAD = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'err'])

/**
 * The server's pino options: `level`, tokens and cookies redacted from request headers, and on a
 * terminal a readable one-line format instead of JSON (`LOG_FORMAT` decides; default: pretty when
 * standard output is a terminal).
 */
export function serverLogger(options: {
  level: string
  format: LogFormat
  out?: NodeJS.WritableStream
}): FastifyServerOptions['logger'] {
  return {
    level: options.level,
    redact: {
      paths: ['req.headers.servicepat', 'req.headers.authorization', 'req.headers.cookie'],
      censor: '[redacted]',
    },
    ...(options.format === 'pretty'
      ? { stream: prettyStream(options.out ?? process.stdout, true) }
      : options.out === undefined
        ? {}
        : { stream: options.out }),
  }
}

/** The default format: pretty on a terminal, JSON otherwise (a file, a pipe, a container's log). */
export function defaultLogFormat(out: { isTTY?: boolean } = process.stdout): LogFormat {
  return out.isTTY === true ? 'pretty' : 'json'
}

/**
 * A destination that turns pino's JSON lines into `12:03:44.512 INFO  message  key=value ...`, with the
 * stack of an `err` below it. Only used for a person at a terminal: it parses every line it writes.
 */
export function prettyStream(out: NodeJS.WritableStream, colour: boolean): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() !== '') out.write(`${prettyLine(line, colour)}\n`)
      }
      done()
    },
  })
}

export function prettyLine(line: string, colour = false): string {
  let entry: Record<string, unknown>
  try {
    entry = JSON.parse(line) as Record<string, unknown>
  } catch {
    return line
  }
  const level = typeof entry.level === 'number' ? entry.level : 30
  const name = (LEVELS[level] ?? String(level)).padEnd(5)
  const time =
    typeof entry.time === 'number' ? new Date(entry.time).toISOString().slice(11, 23) : ''
  const fields = Object.entries(entry)
    .filter(([key]) => !HEAD.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
  const head = `${time} ${colour && COLOURS[level] ? `${COLOURS[level]}${name}\x1b[0m` : name} ${String(entry.msg ?? '')}`
  const err = entry.err as { message?: string; stack?: string } | undefined
  const stack = err ? `\n    ${(err.stack ?? err.message ?? '').split('\n').join('\n    ')}` : ''
  return `${fields.length > 0 ? `${head}  ${fields.join(' ')}` : head}${stack}`
}
