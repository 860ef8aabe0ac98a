import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp, SYSTEM_TOKEN, type TestApp } from '../../test/support/test-app.js'
import { ingestCommand, progressBar } from './ingest-command.js'
import { EngramError, type EngramClient } from '@engram/client'
import { cliClient, clientOptions, type ClientOptions } from './cli-client.js'
import { searchCommand } from './search-command.js'

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
