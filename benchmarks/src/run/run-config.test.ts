import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { acceptExpected, asAccepted } from '../config/accept-expected.js'
import { parseBenchConfig } from '../config/bench-config.js'
import { benchVectors } from '../vectors/bench-vectors.js'
import { testEmbedder } from '../vectors/test-embedder.js'
import { ALL_PHASES } from './run-types.js'
import { runConfig } from './run-config.js'

/** A three-document SciFact-shaped fixture: each query names its one relevant document's rare word. */
function fixture(): string {
  const root = mkdtempSync(join(tmpdir(), 'engram-bench-run-'))
  const dir = join(root, 'scifact')
  mkdirSync(join(dir, 'qrels'), { recursive: true })
  const docs = [
    { _id: 'd1', title: 'Zebrafish', text: 'zebrafish fins regenerate' },
    { _id: 'd2', title: 'Kinase', text: 'kinase inhibitors in tumours' },
    { _id: 'd3', title: 'Sleep', text: 'sleep deprivation and memory' },
  ]
  writeFileSync(join(dir, 'corpus.jsonl'), docs.map((d) => JSON.stringify(d)).join('\n'))
  writeFileSync(
    join(dir, 'queries.jsonl'),
    '{"_id":"1","text":"zebrafish regeneration"}\n{"_id":"2","text":"kinase inhibitors"}\n',
  )
  writeFileSync(join(dir, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\n1\td1\t1\n2\td2\t1\n')
  return root
}

const CONFIG = `
dataset: scifact
condition: bm25
pending: core BM25 index
engine: { channels: [passages] }
metrics: [nDCG@10, MRR]
index_stats: { documents: 3 }
peers: [minisearch, sqlite-fts5, orama-hybrid]
`

describe('runConfig on a fixture', () => {
  it('measures peers (vector peers on the run vectors), reports Engram as pending, writes TREC files, and accepts numbers', async () => {
    const dataDir = fixture()
    const outDir = join(dataDir, '..', `${Date.now()}-out`)
    const lines: string[] = []
    const config = parseBenchConfig('scifact.bm25', CONFIG)
    const result = await runConfig(config, {
      dataDir,
      outDir,
      phases: ALL_PHASES,
      command: 'test',
      log: (l) => lines.push(l),
      vectors: benchVectors({
        cacheDir: join(dataDir, 'cache'),
        create: () => testEmbedder('bow', 16),
      }),
    })
    expect(result.indexStatsVerdict).toBe('OK')
    expect(result.verdict).toBe('PENDING')
    const byName = Object.fromEntries(result.systems.map((s) => [s.name, s]))
    expect(byName.engram?.status).toBe('pending')
    expect(byName.engram?.missing).toBe('core BM25 index')
    expect(byName['orama-hybrid']?.status).toBe('measured')
    // Three documents and two queries embedded once, before any system ran.
    expect(result.embedding).toMatchObject({ embedder: 'bow', texts: 5, cached: 0, embedded: 5 })
    for (const peer of ['minisearch', 'sqlite-fts5']) {
      expect(byName[peer]?.metrics).toEqual({ 'nDCG@10': 1, MRR: 1 })
      expect(byName[peer]?.verdicts).toEqual({ 'nDCG@10': 'NEW', MRR: 'NEW' })
    }
    const trec = readFileSync(join(outDir, 'scifact.bm25.sqlite-fts5.trec'), 'utf8')
    expect(trec.split('\n')[0]).toMatch(/^1 Q0 d1 1 \S+ scifact\.bm25\.sqlite-fts5$/)

    const configFile = join(outDir, 'scifact.bm25.yaml')
    const logFile = join(outDir, 'LOG.md')
    writeFileSync(configFile, CONFIG)
    const changes = await acceptExpected(configFile, logFile, result)
    expect(changes).toContain('expected.minisearch.nDCG@10 (none) -> 1.0000')
    const pinned = parseBenchConfig('scifact.bm25', readFileSync(configFile, 'utf8'))
    expect(pinned.expected['sqlite-fts5']).toEqual({ 'nDCG@10': 1, MRR: 1 })
    expect(readFileSync(logFile, 'utf8')).toMatch(/## \d{4}-\d{2}-\d{2} scifact\.bm25/)
    expect(await acceptExpected(configFile, logFile, result)).toEqual([])
    // Saved as accepted: the peers' NEW numbers are OK against what was pinned; Engram stays pending.
    const accepted = asAccepted(result)
    const acceptedBy = Object.fromEntries(accepted.systems.map((s) => [s.name, s]))
    expect(acceptedBy.minisearch?.verdicts).toEqual({ 'nDCG@10': 'OK', MRR: 'OK' })
    expect(acceptedBy.engram?.status).toBe('pending')
    expect(accepted.verdict).toBe('PENDING')
    expect(result.systems[1]?.verdicts).toEqual({ 'nDCG@10': 'NEW', MRR: 'NEW' })
  })
})
