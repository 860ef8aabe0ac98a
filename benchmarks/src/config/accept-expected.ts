import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { format, resolveConfig } from 'prettier'
import { parseDocument } from 'yaml'
import type { ConfigResult } from '../run/run-types.js'
import { configVerdict, judge, round4 } from './verdict.js'

/**
 * Pins a run's measured numbers as the config's expected values (4 decimals) and, for every number that changes,
 * appends a dated line to LOG.md (the Anserini reproduction-log habit, STYLE.md item 12). Comments and key order in
 * the YAML are preserved, and the file is written as the repository's Prettier settings format it, so an
 * accepted config passes `npm run lint` unchanged. Returns the changes made.
 */
export async function acceptExpected(
  configFile: string,
  logFile: string,
  result: ConfigResult,
): Promise<string[]> {
  const doc = parseDocument(readFileSync(configFile, 'utf8'))
  const changes: string[] = []
  if (doc.getIn(['index_stats', 'documents']) !== result.corpus.documents) {
    const old = doc.getIn(['index_stats', 'documents'])
    doc.setIn(['index_stats', 'documents'], result.corpus.documents)
    changes.push(`index_stats.documents ${old ?? '(none)'} -> ${result.corpus.documents}`)
  }
  for (const s of result.systems) {
    for (const [metric, value] of Object.entries(s.metrics ?? {})) {
      const old = doc.getIn(['expected', s.name, metric]) as number | undefined
      const next = round4(value)
      if (old === next) continue
      doc.setIn(['expected', s.name, metric], next)
      changes.push(
        `expected.${s.name}.${metric} ${old === undefined ? '(none)' : old.toFixed(4)} -> ${next.toFixed(4)}`,
      )
    }
  }
  if (changes.length === 0) return changes
  const options = (await resolveConfig(configFile)) ?? {}
  writeFileSync(
    configFile,
    await format(doc.toString({ lineWidth: 0 }), { ...options, filepath: configFile }),
  )
  const env = result.environment
  const entry = [
    `\n## ${env.date.slice(0, 10)} ${result.config}`,
    '',
    `Measured by \`${result.command}\` on ${env.cpu} (${env.cores} cores), Node ${env.node}; ` +
      `${result.corpus.documents} documents, ${result.corpus.queries} queries.`,
    '',
    ...changes.map((c) => `- ${c}`),
    '',
  ].join('\n')
  if (!existsSync(logFile))
    writeFileSync(
      logFile,
      '# Benchmark log\n\nA dated entry for every change of an expected number.\n',
    )
  appendFileSync(logFile, entry)
  return changes
}

/**
 * A run as it stands once `acceptExpected` pinned its numbers: every measured metric judged against its
 * pinned (rounded) value, the index check against the pinned document count. This is what the committed
 * results record for an accepted run, so their tables do not keep the FAIL or NEW the numbers had
 * against the expected values they replaced (LOG.md keeps those changes).
 */
export function asAccepted(result: ConfigResult): ConfigResult {
  const systems = result.systems.map((s) =>
    s.metrics === undefined
      ? s
      : {
          ...s,
          statsVerdict: s.statsVerdict === undefined ? undefined : ('OK' as const),
          verdicts: Object.fromEntries(
            Object.entries(s.metrics).map(([k, v]) => [k, judge(v, round4(v))]),
          ),
        },
  )
  return { ...result, indexStatsVerdict: 'OK', systems, verdict: configVerdict('OK', systems) }
}

export const logPath = (benchmarksDir: string) => join(benchmarksDir, 'LOG.md')
