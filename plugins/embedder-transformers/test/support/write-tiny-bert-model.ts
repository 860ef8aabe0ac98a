import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import onnxProto from 'onnx-proto'

const { onnx } = onnxProto

export interface TinyBertOptions {
  /** Vector size (`hidden_size`). Default 16. */
  hidden?: number
  /** Whole words in the WordPiece vocabulary (lowercase); anything else is `[UNK]`. */
  words?: string[]
  /** `model_max_length` of the tokenizer config (default 512); null leaves it out. */
  modelMaxLength?: number | null
}

const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]']
const DEFAULT_WORDS = (
  'the a an of on in and is was to cat kitten dog sat mat rug revenue profits grew quarter ' +
  'company reported market river flooded valley spring london paris meetup emily organized . ,'
).split(' ')

/**
 * Writes a tiny, valid BERT-shaped model that transformers.js loads offline as `feature-extraction`
 * (recipe: ../shared/reference/stack-notes.md section 5). The ONNX graph (opset 13, IR 8, via onnx-proto)
 * is `last_hidden_state = (Gather(word_emb, input_ids) + Gather(type_emb, token_type_ids)) * attention_mask`
 * with seeded pseudo-random tables: no attention, so it proves the loading, tokenising, pooling and
 * normalising path, not embedding quality. Files: `config.json`, `tokenizer.json` (a WordPiece model in the
 * Hugging Face tokenizers format), `tokenizer_config.json`, `onnx/model.onnx`.
 */
export function writeTinyBertModel(dir: string, options: TinyBertOptions = {}): void {
  const hidden = options.hidden ?? 16
  const vocab = [...SPECIAL, ...(options.words ?? DEFAULT_WORDS)]
  mkdirSync(join(dir, 'onnx'), { recursive: true })
  writeFileSync(join(dir, 'onnx', 'model.onnx'), modelBytes(vocab.length, hidden))
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      model_type: 'bert',
      architectures: ['BertModel'],
      hidden_size: hidden,
      vocab_size: vocab.length,
      type_vocab_size: 2,
      num_hidden_layers: 1,
      num_attention_heads: 1,
      intermediate_size: hidden,
      max_position_embeddings: 512,
      pad_token_id: 0,
    }),
  )
  writeFileSync(
    join(dir, 'tokenizer_config.json'),
    JSON.stringify({
      tokenizer_class: 'BertTokenizer',
      do_lower_case: true,
      ...(options.modelMaxLength === null
        ? {}
        : { model_max_length: options.modelMaxLength ?? 512 }),
      cls_token: '[CLS]',
      sep_token: '[SEP]',
      pad_token: '[PAD]',
      unk_token: '[UNK]',
      mask_token: '[MASK]',
    }),
  )
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocab)))
}

function tokenizerJson(vocab: string[]) {
  const special = (token: string) => ({ id: token, type_id: 0 })
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map((content, id) => ({
      id,
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: special('[CLS]') },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: special('[SEP]') },
      ],
      pair: [
        { SpecialToken: special('[CLS]') },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: special('[SEP]') },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((token, id) => [token, id])),
    },
  }
}

function modelBytes(vocabSize: number, hidden: number): Uint8Array {
  const { DataType } = onnx.TensorProto
  const random = mulberry32(42)
  const table = (name: string, rows: number) =>
    onnx.TensorProto.create({
      name,
      dataType: DataType.FLOAT,
      dims: [rows, hidden],
      rawData: new Uint8Array(
        Float32Array.from({ length: rows * hidden }, () => random() * 2 - 1).buffer,
      ),
    })
  const int64Input = (name: string) =>
    onnx.ValueInfoProto.create({
      name,
      type: {
        tensorType: {
          elemType: DataType.INT64,
          shape: { dim: [{ dimParam: 'batch' }, { dimParam: 'sequence' }] },
        },
      },
    })
  const node = (opType: string, input: string[], output: string, attribute: object[] = []) =>
    onnx.NodeProto.create({ opType, input, output: [output], name: output, attribute })
  const graph = onnx.GraphProto.create({
    name: 'tiny-bert',
    initializer: [
      table('word_embeddings', vocabSize),
      table('token_type_embeddings', 2),
      onnx.TensorProto.create({
        name: 'last_axis',
        dataType: DataType.INT64,
        dims: [1],
        int64Data: [-1],
      }),
    ],
    input: [int64Input('input_ids'), int64Input('attention_mask'), int64Input('token_type_ids')],
    output: [
      onnx.ValueInfoProto.create({
        name: 'last_hidden_state',
        type: {
          tensorType: {
            elemType: DataType.FLOAT,
            shape: { dim: [{ dimParam: 'batch' }, { dimParam: 'sequence' }, { dimValue: hidden }] },
          },
        },
      }),
    ],
    node: [
      node('Gather', ['word_embeddings', 'input_ids'], 'words'),
      node('Gather', ['token_type_embeddings', 'token_type_ids'], 'types'),
      node('Add', ['words', 'types'], 'summed'),
      node('Cast', ['attention_mask'], 'mask_float', [
        { name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: DataType.FLOAT },
      ]),
      node('Unsqueeze', ['mask_float', 'last_axis'], 'mask'),
      node('Mul', ['summed', 'mask'], 'last_hidden_state'),
    ],
  })
  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: 'engram-tests',
    opsetImport: [{ domain: '', version: 13 }],
    graph,
  })
  return onnx.ModelProto.encode(model).finish()
}

/** Seeded PRNG (mulberry32, Tommy Ettinger, public domain) so the model is identical on every run. */
function mulberry32(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
