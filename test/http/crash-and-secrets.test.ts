import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { killHard, spawnServer } from '../support/spawn-server.js'

const dirs: string[] = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-http-'))
  dirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  )
}

const TOKEN = 'spat_crash-test-system-token-abcdef'

describe('the real server process', () => {
  it('keeps an entity and its changelog entry after SIGKILL right after the 201', async () => {
    const dataDir = tempDir()
    const env = { ENGRAM_DATA_DIR: dataDir, SERVICEPAT_TOKEN: TOKEN }
    const first = await spawnServer(env)
    const res = await fetch(`${first.url}/model/entity`, {
      method: 'POST',
      headers: { ServicePAT: TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Durable Emily', labels: ['PERSON'] }),
    })
    expect(res.status).toBe(201)
    const [entity] = (await res.json()) as { uuid: string }[]
    await killHard(first)

    const second = await spawnServer(env)
    const list = (await (
      await fetch(`${second.url}/retrieve/entities?query_text=durable`, {
        headers: { ServicePAT: TOKEN },
      })
    ).json()) as { entities: { uuid: string }[] }
    expect(list.entities.map((e) => e.uuid)).toEqual([entity!.uuid])
    const log = (await (
      await fetch(`${second.url}/retrieve/changelogs?types=node_created`, {
        headers: { ServicePAT: TOKEN },
      })
    ).json()) as { changelogs: { change: { node: { uuid: string } } }[] }
    expect(log.changelogs.map((c) => c.change.node.uuid)).toEqual([entity!.uuid])
    await killHard(second)
  })

  it('prints a generated system token once and stores no token in clear', async () => {
    const dataDir = tempDir()
    const first = await spawnServer({ ENGRAM_DATA_DIR: dataDir, SERVICEPAT_TOKEN: '' })
    const printed = /(spat_[A-Za-z0-9_-]{43})/.exec(first.output())?.[1]
    expect(printed).toBeDefined()
    const brain = (await (
      await fetch(`${first.url}/system/brains`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${printed}`, 'content-type': 'application/json' },
        body: JSON.stringify({ brain_id: 'secrets' }),
      })
    ).json()) as { pat: string }
    expect(brain.pat).toMatch(/^spat_/)
    const list = await (
      await fetch(`${first.url}/system/brains-list`, { headers: { ServicePAT: printed! } })
    ).text()
    expect(list).not.toContain(brain.pat)
    await killHard(first)

    const tokenFile = filesUnder(dataDir).find((f) => f.endsWith('system-token.sha256'))!
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600)
    for (const file of filesUnder(dataDir)) {
      const bytes = readFileSync(file).toString('latin1')
      expect(bytes.includes(printed!), file).toBe(false)
      expect(bytes.includes(brain.pat), file).toBe(false)
    }

    const second = await spawnServer({ ENGRAM_DATA_DIR: dataDir, SERVICEPAT_TOKEN: '' })
    expect(second.output()).not.toContain('spat_')
    expect(
      (await fetch(`${second.url}/system/brains-list`, { headers: { ServicePAT: printed! } }))
        .status,
    ).toBe(200)
    await killHard(second)
  })

  it('shuts down gracefully on SIGTERM with exit code 0', async () => {
    const server = await spawnServer({ ENGRAM_DATA_DIR: tempDir(), SERVICEPAT_TOKEN: TOKEN })
    const exited = new Promise<number | null>((resolve) =>
      server.child.once('exit', (code) => resolve(code)),
    )
    server.child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })
})
