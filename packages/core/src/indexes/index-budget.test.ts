import { describe, expect, it } from 'vitest'
import type { Logger } from '../logger.js'
import { createIndexBudget, type IndexBudgetDeps } from './index-budget.js'
import { LruSizes } from './lru-sizes.js'

type Entry = { id: string }

function recordingLogger() {
  const lines: { level: string; msg: string; obj: Record<string, unknown> }[] = []
  const at =
    (level: string) =>
    (obj: object, msg = '') =>
      lines.push({ level, msg, obj: obj as Record<string, unknown> })
  const logger: Logger = {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
  }
  return { lines, logger }
}

function budgetOf(budgetBytes: number, deps: Partial<IndexBudgetDeps<Entry>> = {}) {
  const { lines, logger } = recordingLogger()
  const dropped: string[] = []
  const saved: string[] = []
  const budget = createIndexBudget<Entry>({
    budgetBytes,
    logger,
    brainIdOf: (e) => e.id,
    save: async (e) => {
      saved.push(e.id)
    },
    drop: (e) => dropped.push(e.id),
    ...deps,
  })
  const entries = new Map<string, Entry>()
  const entry = (id: string) => {
    let e = entries.get(id)
    if (e === undefined) entries.set(id, (e = { id }))
    return e
  }
  /** A request for `id` whose indexes weigh `bytes`. */
  const request = (id: string, bytes: number) => {
    budget.use(entry(id))
    budget.measure(entry(id), bytes)
  }
  return { budget, entry, request, dropped, saved, lines }
}

describe('LruSizes', () => {
  it('keeps keys in order of use with their total', () => {
    const lru = new LruSizes<string>()
    lru.set('a', 10)
    lru.set('b', 20)
    lru.set('c', 30)
    lru.touch('a')
    lru.set('b', 25)
    expect([...lru.keys()]).toEqual(['b', 'c', 'a'])
    expect(lru.total).toBe(65)
    expect(lru.delete('c')).toBe(true)
    expect(lru.delete('c')).toBe(false)
    lru.touch('c')
    expect([...lru.keys()]).toEqual(['b', 'a'])
    expect(lru.total).toBe(35)
    expect(lru.size).toBe(2)
  })
})

describe('createIndexBudget', () => {
  it('evicts least recently used brains until the rest fit', async () => {
    const { budget, request, dropped, saved } = budgetOf(100)
    request('a', 40)
    request('b', 40)
    request('a', 40) // a is now more recent than b
    request('c', 40)
    await budget.settled()
    expect(dropped).toEqual(['b'])
    expect(saved).toEqual(['b'])
    request('d', 70)
    await budget.settled()
    expect(dropped).toEqual(['b', 'a', 'c'])
    expect(budget.stats()).toEqual({
      loadedBrains: 1,
      estimatedBytes: 70,
      budgetBytes: 100,
      evictions: 3,
    })
  })

  it('never evicts the brain requested last: one larger than the budget stays, with one warning', async () => {
    const { budget, request, dropped, lines } = budgetOf(100)
    request('a', 30)
    request('big', 500)
    await budget.settled()
    expect(dropped).toEqual(['a'])
    request('big', 520)
    await budget.settled()
    const warnings = lines.filter((l) => l.level === 'warn')
    expect(warnings).toHaveLength(1)
    expect(warnings[0]!.obj).toMatchObject({ brainId: 'big', budgetBytes: 100 })
    expect(budget.stats()).toMatchObject({ loadedBrains: 1, estimatedBytes: 520 })
    // The next brain's request evicts it like any other.
    request('b', 10)
    await budget.settled()
    expect(dropped).toEqual(['a', 'big'])
  })

  it('keeps a brain requested while its snapshots were being saved', async () => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const { budget, request, entry, dropped } = budgetOf(100, {
      save: (e) => (e.id === 'a' ? gate : Promise.resolve()),
    })
    request('a', 60)
    request('b', 60) // over: 'a' is saved before it goes
    budget.use(entry('a')) // requested meanwhile
    release()
    await budget.settled()
    expect(dropped).toEqual(['b'])
    expect(budget.stats()).toMatchObject({ loadedBrains: 1, estimatedBytes: 60, evictions: 1 })
  })

  it('evicts all the same when the save fails (storage has everything)', async () => {
    const { budget, request, dropped, lines } = budgetOf(100, {
      save: async () => {
        throw new Error('disk full')
      },
    })
    request('a', 60)
    request('b', 60)
    await budget.settled()
    expect(dropped).toEqual(['a'])
    expect(lines.some((l) => l.level === 'warn' && l.obj.brainId === 'a')).toBe(true)
  })

  it('does not evict forgotten entries, nor count them', async () => {
    const { budget, request, entry, dropped } = budgetOf(100)
    request('a', 60)
    budget.forget(entry('a'))
    request('b', 60)
    await budget.settled()
    expect(dropped).toEqual([])
    expect(budget.stats()).toMatchObject({ loadedBrains: 1, estimatedBytes: 60 })
  })

  it('is unlimited by default and refuses a budget that is not positive', () => {
    const { logger } = recordingLogger()
    const deps = {
      logger,
      brainIdOf: (e: Entry) => e.id,
      save: async () => {},
      drop: () => {},
    }
    const budget = createIndexBudget<Entry>(deps)
    budget.measure({ id: 'a' }, 1e15)
    expect(budget.stats()).toMatchObject({ budgetBytes: null, evictions: 0, loadedBrains: 1 })
    expect(() => createIndexBudget<Entry>({ ...deps, budgetBytes: 0 })).toThrow(RangeError)
    expect(() => createIndexBudget<Entry>({ ...deps, budgetBytes: Number.NaN })).toThrow(RangeError)
  })
})
