import { banner, fmtMs, mdTable } from '../report/format.js'
import { environmentLine } from '../run/environment.js'
import type { GrowthStep, OpGrowthResult } from './op-growth-result.js'

/**
 * The exponent b of p50 ~ a * entities^b, by least squares on log-log (the usual empirical
 * order-of-growth estimate, e.g. Sedgewick & Wayne, Algorithms 4th ed., section 1.4 "doubling
 * ratio"). 1 is linear, 0 flat; null with fewer than two usable sizes.
 */
export function growthExponent(points: readonly { x: number; y: number }[]): number | null {
  const usable = points.filter((p) => p.x > 0 && p.y > 0 && Number.isFinite(p.y))
  if (usable.length < 2) return null
  const xs = usable.map((p) => Math.log(p.x))
  const ys = usable.map((p) => Math.log(p.y))
  const mx = xs.reduce((s, x) => s + x, 0) / xs.length
  const my = ys.reduce((s, y) => s + y, 0) / ys.length
  let num = 0
  let den = 0
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my)
    den += (xs[i]! - mx) ** 2
  }
  return den === 0 ? null : num / den
}

/** linear-or-worse at b >= 0.8, growing at b >= 0.3, else flat (noise on a shared machine is ~0.1-0.2). */
export function growthVerdict(b: number | null): string {
  if (b === null) return '-'
  if (b >= 0.8) return b >= 1.2 ? 'WORSE THAN LINEAR' : 'LINEAR'
  return b >= 0.3 ? 'growing' : 'flat'
}

function opPoints(steps: readonly GrowthStep[], name: string) {
  return steps.flatMap((s) => {
    const op = s.ops.find((o) => o.name === name)
    return op === undefined || op.count === 0 ? [] : [{ x: s.entities, y: op.p50 }]
  })
}

const k = (n: number) => (n >= 1000 ? `${Math.round(n / 1000)}k` : String(n))

/** `results/op-growth.md` from the saved result. */
export function opGrowthReport(result: OpGrowthResult): string {
  const steps = result.steps
  const names = steps[0]?.ops.map((o) => o.name) ?? []
  const cell = (s: GrowthStep, name: string) => {
    const op = s.ops.find((o) => o.name === name)
    if (op === undefined) return '-'
    if (op.count === 0) return `error: ${op.error ?? '?'}`
    return `${fmtMs(op.p50)} / ${fmtMs(op.p99)}`
  }
  const rows = names.map((name) => {
    const b = growthExponent(opPoints(steps, name))
    const first = steps[0]?.ops.find((o) => o.name === name)
    const last = steps.at(-1)?.ops.find((o) => o.name === name)
    const ratio = first && last && first.p50 > 0 ? `${(last.p50 / first.p50).toFixed(1)}x` : '-'
    return [
      name,
      ...steps.map((s) => cell(s, name)),
      ratio,
      b === null ? '-' : b.toFixed(2),
      growthVerdict(b),
    ]
  })
  const firstRows = names.map((name) => [
    name,
    ...steps.map((s) => fmtMs(s.ops.find((o) => o.name === name)?.firstMs)),
  ])
  const bytesRows = names.map((name) => [
    name,
    ...steps.map((s) => {
      const b = s.ops.find((o) => o.name === name)?.meanBytes
      return b === undefined || !Number.isFinite(b) ? '-' : (b / 1024).toFixed(1)
    }),
  ])
  const shapes = names.map((name) => [name, steps[0]!.ops.find((o) => o.name === name)!.shape])
  const brain = steps.map((s) => [
    k(s.target),
    String(s.entities),
    String(s.relationships),
    String(s.passages),
    String(s.observations),
    String(s.changelog),
    String(s.sources),
    (s.growMs / 1000).toFixed(0),
    String(s.rssMb),
    String(s.ops[0]?.count ?? 0),
  ])
  return [
    banner(result.command),
    '',
    '# Operation cost as one brain grows (issue 29 item 4)',
    '',
    environmentLine(result.environment),
    `Whole run: ${(result.wallMs / 60_000).toFixed(1)} min.`,
    '',
    'One SYNTHETIC brain (`src/growth/growth-corpus.ts`) grown in steps on SQLite with `EMBEDDER=none` and the',
    'local extractor, through `startServer(loadConfig(env))` as `engram serve` runs it. Each event unit is a',
    'structured item `Person -> Event -> Place` (`POST /ingest/structured`, 1,000 per task); per 1,000 units',
    'also 250 SYNTHETIC passages committed in bulk, 20 organisations and WORKS_AT edges through the model API and',
    '4 short texts through `POST /ingest/` and the local extractor. Degrees are stationary (a person has about 3',
    'events, a place about 10), so a request about a typical entity touches a neighbourhood of the same size at',
    'every brain size: a cost that grows comes from the brain, not from the target.',
    '',
    'Every request goes through `app.inject` into the served app (the route handlers, validation and',
    'serialisation, no socket), one at a time, targets rotating over the grown entities. After each step one',
    'untimed-for-the-percentiles first request per operation, then the timed ones (fewer at larger sizes, each',
    'operation capped in time). p99 is nearest-rank: below 100 requests it is the slowest. Write operations',
    '(create entity, update relationship, ingest) add a few records per request.',
    '',
    '## The brain at each step',
    '',
    mdTable(
      [
        'step',
        'entities',
        'relationships',
        'passages',
        'observations',
        'changelog',
        'sources',
        'grow s (cumulative)',
        'RSS MB',
        'timed requests per op',
      ],
      brain,
    ),
    '',
    '## p50 / p99 per operation (ms)',
    '',
    '`growth` is p50 at the last size over p50 at the first; `b` the exponent of p50 ~ entities^b fitted on',
    'log-log: LINEAR at b >= 0.8, growing at b >= 0.3, else flat.',
    '',
    mdTable(['operation', ...steps.map((s) => k(s.target)), 'growth', 'b', 'verdict'], rows),
    '',
    '## First request after each growth step (ms)',
    '',
    mdTable(['operation', ...steps.map((s) => k(s.target))], firstRows),
    '',
    '## Mean response size (KB)',
    '',
    'An operation whose answer grows with the brain (more seeds, hits or neighbours found) does more work for',
    'that reason alone; one whose answer stays the same size and still slows down pays for the brain itself.',
    '',
    mdTable(['operation', ...steps.map((s) => k(s.target))], bytesRows),
    '',
    '## Requests',
    '',
    mdTable(['operation', 'request'], shapes),
    '',
  ].join('\n')
}
