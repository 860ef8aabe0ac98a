import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import * as ort from 'onnxruntime-node'
import {
  FLOAT_INPUT,
  type UseLitePrecision,
} from '../../../packages/core/src/embedders/use-lite/use-lite-onnx-graph.js'
import {
  signedProductsAreExact,
  useLiteOnnxSession,
} from '../../../packages/core/src/embedders/use-lite/use-lite-onnx-runtime.js'
import { useLiteModelDir } from '../../../packages/core/src/embedders/use-lite/use-lite-pool.js'
import {
  pieceRows,
  sparseBatch,
} from '../../../packages/core/src/embedders/use-lite/use-lite-batch.js'
import {
  UseLiteTokenizer,
  type Vocabulary,
} from '../../../packages/core/src/embedders/use-lite/use-lite-tokenizer.js'
import { loadLocomo } from '../loaders/locomo.js'

/**
 * Where one use-lite model run spends its time, by operator (issue 27 item 3; the per-operator figures of
 * benchmarks/LOG.md): the embedder's own session (`useLiteOnnxSession`: the precision `--precision` names,
 * int8 by default, signed weights where this CPU sums them exactly, one thread) with ONNX Runtime's
 * profiler on, over LoCoMo dev turns (`--turns`, in batches of `--batch`), grouped by transformer layer,
 * block and operator type. `If` nodes (the int8 graph's choice between its float and integer products)
 * are left out: their time is their branch's, counted there.
 *
 *   npx tsx --conditions=source benchmarks/src/vectors/use-lite-op-profile.ts --data ../shared/datasets
 */

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: '../shared/datasets' },
    turns: { type: 'string', default: '400' },
    batch: { type: 'string', default: '16' },
    precision: { type: 'string', default: 'int8' },
  },
})
const precision = values.precision as UseLitePrecision

const modelDir = useLiteModelDir()
const signed = precision === 'int8' && (await signedProductsAreExact())
const out = mkdtempSync(join(tmpdir(), 'engram-ort-profile-'))
const session = await useLiteOnnxSession(modelDir, precision, {
  enableProfiling: true,
  profileFilePrefix: join(out, 'use-lite'),
})
const tokenizer = new UseLiteTokenizer(
  JSON.parse(readFileSync(join(modelDir, 'vocab.json'), 'utf8')) as Vocabulary,
)
const locomo = loadLocomo(join(resolve(values.data!), 'locomo-dev'), 'locomo-dev')
const texts = locomo.groups
  .flatMap((group) => group.docs.map((doc) => doc.text))
  .slice(0, Number(values.turns))
const rows = pieceRows(tokenizer, texts, 256)
const batch = Number(values.batch)
for (let i = 0; i < rows.length; i += batch) {
  const [indices, pieces] = sparseBatch(rows.slice(i, i + batch))
  await session.run({
    indices_int32: new ort.Tensor('int32', indices, [pieces.length, 2]),
    values_int32: new ort.Tensor('int32', pieces, [pieces.length]),
    ...(precision === 'int8' ? { [FLOAT_INPUT]: new ort.Tensor('bool', [false], []) } : {}),
  })
}
await session.release()

interface ProfileEvent {
  cat: string
  name: string
  dur: number
  args: { op_name?: string }
}
const file = readdirSync(out).find((f) => f.endsWith('.json'))!
const events = JSON.parse(readFileSync(join(out, file), 'utf8')) as ProfileEvent[]
rmSync(out, { recursive: true, force: true })
const BLOCKS: readonly [RegExp, string][] = [
  [/\/FFN\/conv1\//, 'FFN input'],
  [/\/FFN\/conv2\//, 'FFN output'],
  [/qkv_transform/, 'attention q, k, v'],
  [/output_transform/, 'attention output'],
  [/DotProductAttention/, 'attention scores'],
  [/AdjustResidualInput/, 'residual input'],
]
const groups = new Map<string, number>()
let total = 0
for (const e of events) {
  const op = e.args.op_name
  if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time') || op === undefined || op === 'If')
    continue
  const layer = /Layer_(\d+)/.exec(e.name)?.[1]
  const block = BLOCKS.find(([re]) => re.test(e.name))?.[1] ?? 'other'
  const key = `${layer === undefined ? '-' : `layer ${layer}`} | ${block} | ${op}`
  groups.set(key, (groups.get(key) ?? 0) + e.dur)
  total += e.dur
}
console.log(
  `${texts.length} LoCoMo dev turns in batches of ${batch}, ${precision}${signed ? ' (signed weights)' : ''}: ` +
    `${(total / 1000).toFixed(0)} ms of kernel time`,
)
console.log('| layer | block | operator | share |\n|---|---|---|---|')
for (const [key, us] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, 20))
  console.log(`| ${key} | ${((us / total) * 100).toFixed(1)}% |`)
