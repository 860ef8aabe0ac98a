import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, SYSTEM_TOKEN, type TestApp } from '../../test/support/test-app.js'
import { ingestCommand, progressBar } from './ingest-command.js'
import { EngramError, type EngramClient } from '@engram/client'
import { cliClient, clientOptions, type ClientOptions } from './cli-client.js'
import { clientCommand } from './client-command.js'
import { forgetCommand } from './forget-command.js'
import { fileSourceId } from './ingest-command.js'
import { searchCommand } from './search-command.js'
import { sourcesCommand } from './sources-command.js'

let t: TestApp
let options: ClientOptions
let client: EngramClient
let dir: string
beforeAll(async () => {
  t = await buildTestApp()
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' })
  options = { url: address, token: SYSTEM_TOKEN, brain: null }
  client = cliClient(options)
  dir = mkdtempSync(join(tmpdir(), 'engram-cli-'))
})
afterAll(async () => {
  await t.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('engram ingest and search', () => {
  it('ingests files with their meta keys, reports each task, then finds the text', async () => {
    const notes = join(dir, 'notes.md')
    writeFileSync(
      notes,
      '# Trip\n\nEmily organized the AI Ethics Meetup in London on March 8, 2024.\n',
    )
    const out: string[] = []
    const progress: string[] = []
    const code = await ingestCommand({
      client,
      files: [notes],
      metaKeys: { source: 'cli' },
      pollMs: 20,
      progress: (line, final) => final && progress.push(line),
      out: (line) => out.push(line),
    })
    expect(code).toBe(0)
    expect(progress.at(-1)).toBe('[####################] 1/1 tasks')
    expect(out).toEqual([expect.stringMatching(/notes\.md: completed \(1 passages, .*\)$/)])

    const lines: string[] = []
    expect(await searchCommand({ client, query: 'ethics meetup', out: (l) => lines.push(l) })).toBe(
      0,
    )
    expect(lines[0]).toMatch(/^ 1\. \d\.\d{4} passages PASSAGE /)
    expect(lines[1]).toContain('Emily organized the AI Ethics Meetup')
    const json: string[] = []
    await searchCommand({ client, query: 'ethics', json: true, out: (l) => json.push(l) })
    expect(JSON.parse(json.join('\n')).hits[0].extras).toEqual({
      source: 'cli',
      filename: 'notes.md',
      // The file's own heading titles it (no title was sent).
      title: 'Trip',
      // Each file is its own source, named by its path as given.
      source_id: notes,
    })
  })

  it('exits 1 naming the file when the server refuses it, and when a file cannot be read', async () => {
    const binary = join(dir, 'tool.exe')
    writeFileSync(binary, Buffer.from([0x4d, 0x5a, 0x90, 0x00]))
    const out: string[] = []
    const code = await ingestCommand({
      client,
      files: [binary, join(dir, 'missing.txt')],
      pollMs: 20,
      progress: () => {},
      out: (line) => out.push(line),
    })
    expect(code).toBe(1)
    expect(out[0]).toMatch(/tool\.exe: refused \(/)
    expect(out[1]).toMatch(/missing\.txt: cannot read/)
  })

  it('surfaces the server’s error code, and an unreachable server', async () => {
    const bad = cliClient({ ...options, token: 'spat_not-a-token-at-all-000000' })
    await expect(searchCommand({ client: bad, query: 'x', out: () => {} })).rejects.toMatchObject({
      status: 401,
      code: 'AUTH_INVALID',
    })
    const nowhere = cliClient({ ...options, url: 'http://127.0.0.1:1' })
    const unreachable = searchCommand({ client: nowhere, query: 'x', out: () => {} })
    await expect(unreachable).rejects.toThrow(EngramError)
    await expect(unreachable).rejects.toMatchObject({ code: 'NETWORK_ERROR', status: 0 })
  })
})

describe('engram sources and forget', () => {
  const run = (fn: (out: (line: string) => void) => Promise<number>) => {
    const lines: string[] = []
    return fn((line) => lines.push(line)).then((code) => ({ code, lines }))
  }
  const ingest = (files: string[], sourceId?: string) =>
    ingestCommand({
      client: client.withBrain('cli-sources'),
      files,
      ...(sourceId !== undefined ? { sourceId } : {}),
      pollMs: 20,
      progress: () => {},
      out: () => {},
    })

  beforeAll(async () => {
    await client.POST('/system/brains', { body: { brain_id: 'cli-sources' } })
  })

  it('ingesting the same path again replaces its source; --source-id names it', async () => {
    const a = join(dir, 'a.md')
    writeFileSync(a, '# A\n\nThe first version mentions kestrels.\n')
    expect(await ingest([a])).toBe(0)
    writeFileSync(a, '# A\n\nThe second version mentions herons.\n')
    expect(await ingest([a])).toBe(0)
    expect(await ingest([a], 'named-a')).toBe(0)
    const brain = client.withBrain('cli-sources')
    const page = await brain.sources.list()
    expect(page.sources.map((s) => s.source_id).sort()).toEqual([a, 'named-a'].sort())
    const source = await brain.sources.get(a)
    expect(source.source.task_ids).toHaveLength(2)
    expect(source.passages.map((p) => p.text).join(' ')).toContain('herons')
    expect(source.passages.map((p) => p.text).join(' ')).not.toContain('kestrels')
  })

  it('lists sources as a table or JSON, and forgets one, waiting for the task', async () => {
    const brain = client.withBrain('cli-sources')
    const table = await run((out) => sourcesCommand({ client: brain, out }))
    expect(table.code).toBe(0)
    expect(table.lines[0]).toMatch(/^SOURCE\s+PASSAGES UPDATED\s+TITLE$/)
    expect(table.lines.find((l) => l.startsWith('named-a'))).toMatch(
      // Titled by the file's heading, "# A".
      /^named-a\s+1 \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ A$/,
    )
    const limited = await run((out) => sourcesCommand({ client: brain, limit: 1, out }))
    expect(limited.lines.at(-1)).toBe('(1 of 2 sources; --limit shows more)')
    const json = await run((out) =>
      sourcesCommand({ client: brain, query: 'named', json: true, out }),
    )
    expect(JSON.parse(json.lines.join('\n'))).toMatchObject({
      total: 1,
      sources: [{ source_id: 'named-a' }],
    })

    const forgot = await run((out) =>
      forgetCommand({ client: brain, sourceId: 'named-a', wait: true, pollMs: 10, out }),
    )
    expect(forgot.code).toBe(0)
    expect(forgot.lines).toEqual([expect.stringMatching(/^named-a: forgotten \(.*1 passages/)])
    const after = await run((out) => sourcesCommand({ client: brain, query: 'named', out }))
    expect(after.lines).toEqual(['no sources'])
    await expect(
      forgetCommand({ client: brain, sourceId: 'named-a', out: () => {} }),
    ).rejects.toMatchObject({ status: 404, code: 'RESOURCE_NOT_FOUND' })
  })

  it('refuses command lines it cannot run, before calling the server', async () => {
    await expect(clientCommand('forget', [])).rejects.toThrow('forget needs exactly one source id')
    await expect(clientCommand('ingest', ['a.md', 'b.md', '--source-id', 'x'])).rejects.toThrow(
      '--source-id names one source',
    )
    await expect(clientCommand('sources', ['--limit', '0'])).rejects.toThrow(
      '--limit must be an integer from 1 to 1000',
    )
    await expect(clientCommand('sources', ['extra'])).rejects.toThrow('sources takes no arguments')
  })

  it('names a file’s source by its path as given, normalised', () => {
    expect(fileSourceId('./notes/a.md')).toBe('notes/a.md')
    expect(fileSourceId('notes//b/../a.md')).toBe('notes/a.md')
    expect(fileSourceId('/abs/a.md')).toBe('/abs/a.md')
  })
})

describe('client options', () => {
  it('takes flags first, then ENGRAM_URL / ENGRAM_TOKEN, then HOST, PORT and BASE_PATH', () => {
    expect(clientOptions({}, { PORT: '9000', BASE_PATH: '/api', SERVICEPAT_TOKEN: 's' })).toEqual({
      url: 'http://127.0.0.1:9000/api',
      token: 's',
      brain: null,
    })
    expect(
      clientOptions(
        { url: 'http://h:1/', brain: 'notes' },
        { ENGRAM_URL: 'http://x', ENGRAM_TOKEN: 'e', SERVICEPAT_TOKEN: 's' },
      ),
    ).toEqual({ url: 'http://h:1', token: 'e', brain: 'notes' })
  })

  it('draws the progress bar', () => {
    expect(progressBar(0, 4, 8)).toBe('[--------] 0/4')
    expect(progressBar(2, 4, 8)).toBe('[####----] 2/4')
    expect(progressBar(0, 0, 8)).toBe('[########] 0/0')
  })
})
