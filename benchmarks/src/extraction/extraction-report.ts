import type { BenchConfig } from '../config/bench-config.js'
import { banner, fmt4, mdTable } from '../report/format.js'
import type { ConfigResult } from '../run/run-types.js'

/** What each measure of an extraction config means (the rule it is computed by). */
export const MEASURES: Readonly<Record<string, string>> = {
  'NE-R': 'named-entity recall: gold PER/ORG/LOC/MISC entities with at least one matching node',
  'PER-P': 'nodes labelled PERSON that match a gold PER entity, over nodes labelled PERSON',
  'PER-R': 'gold PER entities matched by a node labelled PERSON',
  'LOC-P': 'the same for PLACE against gold LOC',
  'LOC-R': 'gold LOC entities matched by a node labelled PLACE',
  'ORG-P': 'the same for ORGANIZATION against gold ORG',
  'ORG-R': 'gold ORG entities matched by a node labelled ORGANIZATION',
  'typed-P': 'micro-averaged over PER, LOC, ORG',
  'typed-R': 'micro-averaged over PER, LOC, ORG',
  'typed-F1': 'harmonic mean of typed-P and typed-R',
  'nodes-per-entity':
    'coreference fragmentation: matching nodes per matched gold entity (1 = one node per entity)',
  'node-P':
    'non-event nodes that match any gold entity (any type), over all non-event nodes; concepts the gold set does not annotate count as wrong',
  'pair-R':
    'gold related entity pairs (a relation in either direction) joined by a relationship between their nodes or through one event node',
  'event-P':
    "events whose actor (the node with an edge into the event) and target (its TARGETED leg) match two different gold entities, with those two related in gold (a relation in either direction), over all such events: whether the verb's subject and object are a pair the text relates",
  'events-judged': 'the number of events event-P judges (its denominator)',
  'relationship-P':
    'relationships between two non-event nodes (LOCATED_IN, ...) that match two different gold entities, with those two related in gold (a relation in either direction), over all such relationships',
  'relationships-judged': 'the number of relationships relationship-P judges (its denominator)',
  'false-merges':
    'all documents in one brain: nodes standing for gold people of different full names (two people sharing a surname)',
}

/** One extraction config and its last saved run (undefined: never run). */
export interface ExtractionEntry {
  readonly config: BenchConfig
  readonly result: ConfigResult | undefined
}

/**
 * results/<dataset>.md of a dataset's extraction configs, from their saved runs: the first (by name, the
 * plain `extraction` condition) opens the page, each other condition (`extraction-wrapped`) follows in a
 * section of its own.
 */
export function extractionReport(command: string, entries: readonly ExtractionEntry[]): string {
  const [first, ...others] = entries
  if (first === undefined) throw new Error('extractionReport needs at least one config')
  const lines = [banner(command, true), '', `# ${first.config.dataset}`, '']
  lines.push(...section(first, true))
  for (const entry of others)
    lines.push(`## ${entry.config.condition}`, '', ...section(entry, false))
  return lines.join('\n')
}

function section({ config, result }: ExtractionEntry, withMatching: boolean): string[] {
  const lines = [config.description, '']
  if (result === undefined) return [...lines, 'Not run yet.', '']
  const env = result.environment
  const engram = result.systems.find((s) => s.role === 'engram')
  lines.push(
    `Environment of the last run: ${env.cpu}, ${env.cores} cores, Node ${env.node}, ${env.os}; ` +
      `${result.corpus.documents} documents${config.wrap === null ? '' : `, each wrapped at ${config.wrap} columns`}; ` +
      `${env.date}. Verdict: ${result.verdict}.`,
    '',
  )
  if (withMatching)
    lines.push(
      "Matching: a node matches a gold entity when one of its names (name or alias) equals one of the entity's " +
        'mention names after normalisation (NFKC, lower case, runs of non-letters/digits to one space, a leading ' +
        'article dropped); a mention with a quoted nickname (`Wilfried "Willi" Schneider`) also matches without it. ' +
        'A capitalised node name that matches no mention but is a run of whole words of the mentions of exactly one ' +
        'entity (`Wilfried`, `Willi`) stands for that entity too: the fragments coreference should have joined. ' +
        'Event nodes are never matched.',
      '',
    )
  lines.push(
    mdTable(
      ['measure', 'value', 'expected', 'verdict', 'rule'],
      config.metrics.map((m) => [
        m,
        fmt4(engram?.metrics?.[m]),
        fmt4(config.expected.engram?.[m]),
        engram?.verdicts?.[m] ?? '-',
        withMatching ? (MEASURES[m] ?? '') : 'as above',
      ]),
    ),
    '',
  )
  if (result.notes.length > 0)
    lines.push(
      `${withMatching ? '##' : '###'} False merges`,
      '',
      ...result.notes.map((n) => `- ${n}`),
      '',
    )
  return lines
}
