import { readFileSync, readdirSync } from 'node:fs'
import { basename, join } from 'node:path'
import { parse } from 'yaml'
import type { Bm25Settings } from '@engram/core'
import { parseMetric } from '../metrics/evaluate.js'
import type { GainMode } from '../metrics/ndcg.js'

/** Engine options of a condition, as the engine will take them (DESIGN.md search pipeline). */
export interface EngineOptions {
  readonly channels: readonly string[]
  /**
   * `alpha`: weight of the dense side for `cc` (the request's `fusion_alpha`, 0..1; engine default: the
   * embedder's calibration). `null`: no fusion (`none`); omitted: the engine's default fusion.
   */
  readonly fusion?: { readonly name: string; readonly k?: number; readonly alpha?: number } | null
  readonly stages?: readonly string[]
  readonly embedder?: string | null
  /** BM25 settings of the engine (variant, k1, b, delta); absent: the engine's defaults. */
  readonly bm25?: Bm25Settings
  readonly seed?: number
  /**
   * Search plugin modules to register, as the server's ENGRAM_PLUGINS takes them: package names or
   * paths relative to the working directory (the repository root under `npm run bench`).
   */
  readonly plugins?: readonly string[]
}

/** One benchmark: `configs/<dataset>.<condition>.yaml` (STYLE.md item 12). */
export interface BenchConfig {
  readonly name: string
  /**
   * `retrieval` (default): queries against an index, scored by ranking metrics. `extraction`: the graph
   * ingestion builds, judged against gold entities (benchmarks/src/extraction/); metrics are its measures.
   */
  readonly kind: 'retrieval' | 'extraction'
  readonly dataset: string
  readonly condition: string
  readonly description: string
  readonly engine: EngineOptions
  /** When set, the Engram condition cannot run yet; the string names the missing capability. */
  readonly pending: string | null
  readonly metrics: readonly string[]
  readonly gains: GainMode
  /** How many hits each system returns per query (>= every metric's k). */
  readonly depth: number
  readonly indexStats: { readonly documents: number } | null
  /** Peers measured in the same run, on the same corpus and queries. */
  readonly peers: readonly string[]
  /** Expected numbers per system (`engram` or a peer name), metric -> value to 4 decimals. */
  readonly expected: Readonly<Record<string, Readonly<Record<string, number>>>>
  /**
   * Extraction configs: each document hard-wrapped at this many columns before ingestion (`hardWrap`),
   * as a plain-text file holds prose; null: one line per document.
   */
  readonly wrap: number | null
}

const KNOWN_KEYS = new Set([
  'kind',
  'dataset',
  'condition',
  'description',
  'engine',
  'pending',
  'metrics',
  'gains',
  'depth',
  'index_stats',
  'peers',
  'expected',
  'wrap',
])

/** Parses and validates one config's YAML text; `name` is the file name without `.yaml`. */
export function parseBenchConfig(name: string, text: string): BenchConfig {
  const raw = (parse(text) ?? {}) as Record<string, unknown>
  const fail = (msg: string): never => {
    throw new Error(`config ${name}: ${msg}`)
  }
  for (const key of Object.keys(raw)) if (!KNOWN_KEYS.has(key)) fail(`unknown key '${key}'`)
  const kind = (raw.kind ?? 'retrieval') as BenchConfig['kind']
  if (kind !== 'retrieval' && kind !== 'extraction') fail(`kind must be retrieval or extraction`)
  const dataset = typeof raw.dataset === 'string' ? raw.dataset : fail('dataset is required')
  const condition =
    typeof raw.condition === 'string' ? raw.condition : name.slice(dataset.length + 1)
  if (name !== `${dataset}.${condition}`) fail(`file name must be ${dataset}.${condition}.yaml`)
  const metrics = Array.isArray(raw.metrics)
    ? raw.metrics.map(String)
    : fail('metrics list is required')
  if (kind === 'retrieval') metrics.forEach(parseMetric)
  const finiteKs =
    kind === 'retrieval' ? metrics.map((m) => parseMetric(m).k).filter(Number.isFinite) : []
  const depth = raw.depth === undefined ? Math.max(10, ...finiteKs) : Number(raw.depth)
  if (!Number.isInteger(depth) || depth < Math.max(1, ...finiteKs))
    fail('depth must cover every metric k')
  const gains: GainMode = raw.gains === undefined ? 'graded' : (raw.gains as GainMode)
  if (gains !== 'graded' && gains !== 'binary') fail(`gains must be graded or binary`)
  const engine = (raw.engine ?? {}) as EngineOptions
  if (kind === 'retrieval' && !Array.isArray(engine.channels)) fail('engine.channels is required')
  const stats = raw.index_stats as { documents?: unknown } | undefined
  if (stats && !Number.isInteger(stats.documents)) fail('index_stats.documents must be an integer')
  const wrap = raw.wrap === undefined ? null : Number(raw.wrap)
  if (wrap !== null && (kind !== 'extraction' || !Number.isInteger(wrap) || wrap < 20))
    fail('wrap is the width in columns of an extraction config, an integer of at least 20')
  const expected = (raw.expected ?? {}) as Record<string, Record<string, unknown>>
  for (const [system, values] of Object.entries(expected)) {
    for (const [metric, value] of Object.entries(values ?? {})) {
      if (!metrics.includes(metric)) fail(`expected.${system}.${metric} is not in metrics`)
      if (typeof value !== 'number') fail(`expected.${system}.${metric} must be a number`)
    }
  }
  return {
    name,
    kind,
    dataset,
    condition,
    description: typeof raw.description === 'string' ? raw.description.trim() : '',
    engine,
    pending: typeof raw.pending === 'string' ? raw.pending.trim() : null,
    metrics,
    gains,
    depth,
    indexStats: stats ? { documents: stats.documents as number } : null,
    peers: Array.isArray(raw.peers) ? raw.peers.map(String) : [],
    expected: expected as Record<string, Record<string, number>>,
    wrap,
  }
}

export function loadBenchConfig(dir: string, name: string): BenchConfig {
  const file = join(dir, `${name}.yaml`)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    throw new Error(`no config '${name}' (${file}); see --list`)
  }
  return parseBenchConfig(name, text)
}

/** Every config name in the folder, sorted. */
export function listConfigNames(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => basename(f, '.yaml'))
    .sort()
}
