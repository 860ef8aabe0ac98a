import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { BenchDoc, BenchQuery, RetrievalDataset } from './dataset-types.js'
import { readJsonl } from './read-jsonl.js'

/**
 * BEIR loader (Thakur et al., NeurIPS 2021 datasets track; format of beir/datasets/data_loader.py):
 * `corpus.jsonl` {_id,title,text}, `queries.jsonl` {_id,text}, `qrels/<split>.tsv` with a header line.
 * Only queries that have judgements in the split are kept, as BEIR's GenericDataLoader does.
 */
export function loadBeir(dir: string, name: string, split = 'test'): RetrievalDataset {
  const docs: BenchDoc[] = readJsonl<{ _id: string; title?: string; text: string }>(
    join(dir, 'corpus.jsonl'),
  ).map((d) => ({ id: String(d._id), title: d.title ?? '', text: d.text }))
  const qrels = parseQrels(readFileSync(join(dir, 'qrels', `${split}.tsv`), 'utf8'))
  const queries: BenchQuery[] = readJsonl<{ _id: string; text: string }>(join(dir, 'queries.jsonl'))
    .filter((q) => qrels.has(String(q._id)))
    .map((q) => ({ id: String(q._id), text: q.text }))
  return {
    name,
    groups: [{ name, docs, queries, qrels }],
    notes: [`split ${split}: ${queries.length} queries with judgements`],
  }
}

/** Parses TREC/BEIR qrels TSV (`query-id corpus-id score`); skips a header and zero-gain rows. */
export function parseQrels(tsv: string): Map<string, Map<string, number>> {
  const qrels = new Map<string, Map<string, number>>()
  for (const line of tsv.split('\n')) {
    const cols = line.trim().split(/\s+/)
    if (cols.length < 3 || cols[0] === 'query-id') continue
    const [qid, docId, score] = [cols[0]!, cols[cols.length - 2]!, Number(cols[cols.length - 1])]
    if (!Number.isFinite(score) || score <= 0) continue
    let row = qrels.get(qid)
    if (!row) qrels.set(qid, (row = new Map()))
    row.set(docId, score)
  }
  return qrels
}
