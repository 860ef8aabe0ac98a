import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { startChild } from '../run/tsx-child.js'
import { type CpuProfile, summarizeProfile, type ProfileSummary } from './cpu-profile-summary.js'
import { flameGraphSvg } from './flame-graph-svg.js'
import { runHttpScenario, searchScenario } from './http-scenarios.js'
import { loadLatencyFixture } from './latency-fixture.js'
import { BENCH_TOKEN } from './seeded-server.js'

const MAIN = fileURLToPath(new URL('./http-profile-main.ts', import.meta.url))

/** Inclusive time of named stages of a search request (regexes over `function (file:line)` frames). */
export const SEARCH_STAGES: Readonly<Record<string, RegExp>> = {
  'engine (a frame of @engram/core or a storage adapter on the stack)':
    /\((packages\/core|adapters)\//,
  '- coverage rerank (rerank=auto: query-coverage stage)': /query-coverage\.ts/,
  '- graph stage (expand=auto: passage walk)': /passage-walk\.ts|graph-walk\.ts/,
  '- hydration (hydrate-step: store reads, snippets)': /hydrate-step\.ts/,
  '- snippets (snippet.ts)': /\(packages\/core\/src\/search\/snippet\.ts/,
  '- request validated again by the engine (zod)': /^parseInput \(packages\/core/,
  'authentication and brain selection (auth hooks)': /plugins\/auth\.ts/,
  'query validation in the route (zod)': /^validateParam \(fastify/,
  // (The serializer was an unnamed arrow on app.ts line 88 before it got its name.)
  'response serialisation (JSON.stringify)':
    /^serializeJson |^\(anonymous\) \(packages\/server\/src\/app\.ts:88\)/,
  'socket writes (writev)': /^writev$/,
  'HTTP parsing (llhttp callbacks)': /^parserOn/,
}

/**
 * Profiles `GET /retrieve/search` end to end: a seeded server in a child process (as in the latency
 * suite), 2 s of untimed load, then `seconds` of autocannon load at 32 connections with the V8 sampling
 * profiler on. Writes `<prefix>.cpuprofile` (open in Chrome DevTools or speedscope) and `<prefix>.folded`;
 * run as a script, also `<prefix>.md` (the tables) and `<prefix>.svg` (the flame graph).
 */
export async function profileHttpSearch(
  dataDir: string,
  prefix: string,
  seconds = 10,
): Promise<{ summary: ProfileSummary; requests: number; requestsPerSec: number }> {
  const fixture = loadLatencyFixture(dataDir)
  const child = await startChild<{ url: string; pid: number }>(MAIN, [
    dataDir,
    `${prefix}.cpuprofile`,
  ])
  let r
  try {
    const { url, pid } = child.result
    await runHttpScenario(url, BENCH_TOKEN, searchScenario(fixture.scifact.queries), 2)
    process.kill(pid, 'SIGUSR2')
    r = await runHttpScenario(url, BENCH_TOKEN, searchScenario(fixture.scifact.queries), seconds)
    // Straight to the serving process (tsx's wrapper would not wait for it to write the profile).
    const exited = new Promise((resolve) => child.child.once('exit', resolve))
    process.kill(pid, 'SIGTERM')
    await exited
  } finally {
    await child.stop(30_000)
  }
  const profile = JSON.parse(readFileSync(`${prefix}.cpuprofile`, 'utf8')) as CpuProfile
  const summary = summarizeProfile(profile, SEARCH_STAGES)
  writeFileSync(`${prefix}.folded`, summary.folded)
  return { summary, requests: r.requests, requestsPerSec: r.requestsPerSec }
}

/** A markdown section: areas, named stages and the top self-time frames, per request. */
export function profileMarkdown(
  title: string,
  run: { summary: ProfileSummary; requests: number; requestsPerSec: number },
  top = 25,
): string {
  const { summary, requests } = run
  const perReq = (ms: number) => ((ms / requests) * 1000).toFixed(1)
  const busy = summary.totalMs - summary.idleMs
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`
  return [
    `### ${title}`,
    '',
    `${requests.toLocaleString('en-US')} responses (${run.requestsPerSec.toFixed(0)} req/s with autocannon on the same cores); ` +
      `profiled ${(summary.totalMs / 1000).toFixed(1)} s, of which ${(busy / 1000).toFixed(1)} s on the JS thread ` +
      `(${perReq(busy)} us a request) and ${(summary.idleMs / 1000).toFixed(1)} s idle.`,
    '',
    '| stage (inclusive) | us/request | share of busy |',
    '|---|---|---|',
    ...Object.entries(summary.inclusive).map(
      ([stage, ms]) => `| ${stage} | ${perReq(ms)} | ${pct(ms / busy)} |`,
    ),
    '',
    '| area (self time) | us/request | share of busy |',
    '|---|---|---|',
    ...summary.areas
      .slice(0, 12)
      .map((a) => `| ${a.area} | ${perReq(a.selfMs)} | ${pct(a.selfShare)} |`),
    '',
    '| # | frame (self time) | area | us/request | share of busy |',
    '|---|---|---|---|---|',
    ...summary.frames
      .slice(0, top)
      .map(
        (f, i) =>
          `| ${i + 1} | \`${f.frame.replace(/\|/g, '\\|')}\` | ${f.area} | ${perReq(f.selfMs)} | ${pct(f.selfShare)} |`,
      ),
    '',
  ].join('\n')
}

/** Summarises an existing `<prefix>.cpuprofile` of `profileHttpSearch` (rewrites `<prefix>.folded`). */
export function summarizeSaved(prefix: string, requests: number, requestsPerSec: number) {
  const profile = JSON.parse(readFileSync(`${prefix}.cpuprofile`, 'utf8')) as CpuProfile
  const summary = summarizeProfile(profile, SEARCH_STAGES)
  writeFileSync(`${prefix}.folded`, summary.folded)
  return { summary, requests, requestsPerSec }
}

// `tsx --conditions=source benchmarks/src/latency/http-profile.ts <datasets dir> <out prefix> [title]`
// profiles; `... http-profile.ts --summarize <out prefix> <responses> <req/s> [title]` re-reads a profile.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2)
  const resummarize = args[0] === '--summarize'
  const prefix = resummarize ? args[1]! : args[1]!
  const title = resummarize ? args[4] : args[2]
  const run = resummarize
    ? summarizeSaved(prefix, Number(args[2]), Number(args[3]))
    : await profileHttpSearch(args[0]!, prefix)
  const md = profileMarkdown(title ?? 'GET /retrieve/search', run)
  writeFileSync(`${prefix}.md`, md)
  writeFileSync(
    `${prefix}.svg`,
    flameGraphSvg(
      run.summary.folded,
      `${title ?? 'GET /retrieve/search'}: CPU profile of the server`,
    ),
  )
  process.stdout.write(md)
}
