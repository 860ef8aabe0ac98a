import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'

/** The parts of an OpenAPI 3.1 document a response check reads. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>
  components: { schemas: Record<string, JsonSchema> }
}
export interface OpenApiOperation {
  operationId: string
  responses: Record<
    string,
    { description?: string; content?: Record<string, { schema: JsonSchema }> }
  >
}
type JsonSchema = Record<string, unknown>

/** Keywords that constrain a value: a schema with none of them is free-form (`{}`, a map's values). */
const CONSTRAINING = [
  'type',
  'properties',
  'items',
  'prefixItems',
  'anyOf',
  'oneOf',
  'allOf',
  'enum',
  'const',
  '$ref',
]

/**
 * Checks responses against the document a server publishes: the JSON Schema of the operation's 2xx
 * response (Ajv, draft 2020-12, with formats such as `date-time`), and the wire rule of CONTRACT.md
 * section 1 that no field the document types holds `null`. The second check reads a schema that
 * admits null (`type: ['string', 'null']`) as its plain type, as a client typed from the
 * specification does; only free-form values (maps such as `properties`) and the one field the
 * specification types "any, may be null" (a Task's `result`) may hold null.
 */
export function createResponseCheck(doc: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats.default(ajv)
  const validators = new Map<string, ValidateFunction>()

  const operation = (operationId: string) => {
    for (const [path, methods] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(methods))
        if (op.operationId === operationId) return { path, method, op }
    throw new Error(`no operation ${operationId} in the document`)
  }

  const resolve = (schema: unknown): JsonSchema => {
    let s = (typeof schema === 'object' && schema !== null ? schema : {}) as JsonSchema
    for (let hops = 0; typeof s.$ref === 'string' && hops < 20; hops++) {
      const name = s.$ref.replace('#/components/schemas/', '')
      s = doc.components.schemas[name] ?? {}
    }
    return s
  }
  const isFreeForm = (schema: JsonSchema) => !CONSTRAINING.some((k) => k in schema)
  const typesOf = (schema: JsonSchema): string[] =>
    Array.isArray(schema.type) ? (schema.type as string[]) : [String(schema.type)]

  /** The member of a union that fits `value` (objects: the one whose required keys it has). */
  const branch = (schema: JsonSchema, value: unknown): JsonSchema => {
    const members = ((schema.oneOf ?? schema.anyOf) as unknown[] | undefined)?.map(resolve)
    if (members === undefined) return schema
    const kind = Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : null
    const fits = members.filter((m) => kind === null || typesOf(m).includes(kind))
    const fit =
      kind === 'object'
        ? fits.find((m) =>
            ((m.required as string[] | undefined) ?? []).every((k) => k in (value as object)),
          )
        : fits[0]
    return branch(fit ?? members.find((m) => !typesOf(m).includes('null')) ?? {}, value)
  }

  const nulls = (value: unknown, schema: unknown, path: string, out: string[]): void => {
    const s = branch(resolve(schema), value)
    if (value === null) {
      if (!isFreeForm(s)) out.push(path)
      return
    }
    if (Array.isArray(value)) {
      const prefix = (s.prefixItems as unknown[] | undefined) ?? []
      value.forEach((item, i) => nulls(item, prefix[i] ?? s.items ?? {}, `${path}[${i}]`, out))
      return
    }
    if (typeof value !== 'object') return
    const properties = (s.properties as Record<string, unknown> | undefined) ?? {}
    const isTask = 'task_id' in properties
    for (const [key, member] of Object.entries(value)) {
      if (member === null && isTask && key === 'result') continue // spec 2.7: "any, may be null"
      const child = properties[key] ?? (isFreeForm(s) ? {} : (s.additionalProperties ?? {}))
      nulls(member, child, `${path}.${key}`, out)
    }
  }

  return {
    /** Method and path of an operation, by operationId. */
    operation,
    /** Every operationId of the document. */
    operationIds: () =>
      Object.values(doc.paths).flatMap((methods) =>
        Object.values(methods).map((op) => op.operationId),
      ),
    /**
     * Problems of one response: a status the operation does not document as success, schema
     * violations, and the paths of nulls in typed fields. Empty when the response conforms.
     */
    check(operationId: string, status: number, body: unknown): string[] {
      if (!String(status).startsWith('2'))
        return [`status ${status} is not a documented success of ${operationId}`]
      return conforms(operationId, status, body)
    },
    /**
     * Problems of one error response: a status the operation does not document, or a body that is
     * not the schema documented for it (the error envelope). Empty when the response conforms.
     */
    checkError(operationId: string, status: number, body: unknown): string[] {
      if (String(status).startsWith('2')) return [`status ${status} is not an error`]
      return conforms(operationId, status, body)
    },
    /** The description of a documented response, or undefined when the status is not documented. */
    describes(operationId: string, status: number): string | undefined {
      return operation(operationId).op.responses[String(status)]?.description
    },
  }

  function conforms(operationId: string, status: number, body: unknown): string[] {
    const { op } = operation(operationId)
    const schema = op.responses[String(status)]?.content?.['application/json']?.schema
    if (schema === undefined) return [`status ${status} is not documented for ${operationId}`]
    const key = `${operationId} ${status}`
    let validate = validators.get(key)
    if (validate === undefined) {
      validate = ajv.compile({ ...schema, components: doc.components })
      validators.set(key, validate)
    }
    const problems = validate(body)
      ? []
      : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`)
    const found: string[] = []
    nulls(body, schema, '$', found)
    return [...problems, ...found.map((p) => `null at ${p}`)]
  }
}
