/** The parts of a V8 `.cpuprofile` (Chrome DevTools protocol `Profiler.Profile`) the summary reads. */
export interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number
    readonly callFrame: {
      readonly functionName: string
      readonly url: string
      readonly lineNumber: number
    }
    readonly children?: readonly number[]
  }[]
  readonly startTime: number
  readonly endTime: number
  readonly samples: readonly number[]
  readonly timeDeltas: readonly number[]
}

export interface FrameTime {
  /** `function (package/file:line)`. */
  readonly frame: string
  /** Where the code lives: a package, `engram:<workspace>`, `node:` internals, or V8's own entries. */
  readonly area: string
  readonly selfMs: number
  readonly selfShare: number
}

export interface ProfileSummary {
  readonly totalMs: number
  /** Time with nothing on the JS stack (`(idle)`): the event loop waiting on the network. */
  readonly idleMs: number
  readonly frames: readonly FrameTime[]
  /** Self time summed by area, largest first. */
  readonly areas: readonly { area: string; selfMs: number; selfShare: number }[]
  /** Inclusive time (ms) of frames whose name matches, for named stages (each counted once a sample). */
  readonly inclusive: Readonly<Record<string, number>>
  /** Folded stacks (`a;b;c <µs>`), the input format of Brendan Gregg's flamegraph.pl and speedscope. */
  readonly folded: string
}

/** The package (or repository workspace) a script URL belongs to. */
export function areaOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)'
  if (url.startsWith('node:')) return 'node:internals'
  const nm = url.lastIndexOf('/node_modules/')
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/')
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!
  }
  const ws = /\/(packages|adapters|plugins|benchmarks)\/([^/]+)\//.exec(url)
  if (ws) return ws[1] === 'benchmarks' ? 'engram:benchmarks' : `engram:${ws[2]}`
  return url
}

function frameName(
  url: string,
  functionName: string,
  lineNumber: number,
  short: (url: string) => string,
): string {
  const name = functionName === '' ? '(anonymous)' : functionName
  return url === '' ? name : `${name} (${short(url)}:${lineNumber + 1})`
}

/** Shortens a file URL to its package-relative path. */
export function shortUrl(url: string): string {
  const nm = url.lastIndexOf('/node_modules/')
  if (nm >= 0) return url.slice(nm + '/node_modules/'.length)
  const repo = /\/(packages|adapters|plugins|benchmarks)\/.*$/.exec(url)
  return repo ? repo[0].slice(1) : url.replace(/^file:\/\//, '')
}

/**
 * Self time per frame from the samples (each sample is charged the time delta to the next one, as Chrome
 * DevTools does), grouped by area, plus inclusive times for the frames named in `stages`.
 */
export function summarizeProfile(
  profile: CpuProfile,
  stages: Readonly<Record<string, RegExp>> = {},
): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const selfUs = new Map<string, { area: string; us: number }>()
  const areaUs = new Map<string, number>()
  const inclusiveUs: Record<string, number> = Object.fromEntries(
    Object.keys(stages).map((k) => [k, 0]),
  )
  const foldedUs = new Map<string, number>()
  const stackCache = new Map<number, string[]>()
  const stackOf = (id: number): string[] => {
    const cached = stackCache.get(id)
    if (cached) return cached
    const node = byId.get(id)!
    const up = parent.get(id)
    const { url, functionName, lineNumber } = node.callFrame
    const here = frameName(url, functionName, lineNumber, shortUrl)
    const stack = up === undefined ? [] : [...stackOf(up), here]
    stackCache.set(id, stack)
    return stack
  }
  let totalUs = 0
  let idleUs = 0
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!
    // timeDeltas[i] is the time since the previous sample; charge the next delta to this one.
    const us = profile.timeDeltas[i + 1] ?? 0
    if (us <= 0) continue
    totalUs += us
    const node = byId.get(id)!
    const { url, functionName, lineNumber } = node.callFrame
    if (functionName === '(idle)') {
      idleUs += us
      continue
    }
    const name = frameName(url, functionName, lineNumber, shortUrl)
    const area = areaOf(url, functionName)
    const entry = selfUs.get(name) ?? { area, us: 0 }
    entry.us += us
    selfUs.set(name, entry)
    areaUs.set(area, (areaUs.get(area) ?? 0) + us)
    const stack = stackOf(id)
    const folded = stack.join(';')
    foldedUs.set(folded, (foldedUs.get(folded) ?? 0) + us)
    for (const [stage, pattern] of Object.entries(stages)) {
      if (stack.some((f) => pattern.test(f))) inclusiveUs[stage]! += us
    }
  }
  const busyUs = totalUs - idleUs
  const share = (us: number) => (busyUs === 0 ? 0 : us / busyUs)
  return {
    totalMs: totalUs / 1000,
    idleMs: idleUs / 1000,
    frames: [...selfUs.entries()]
      .map(([frame, { area, us }]) => ({ frame, area, selfMs: us / 1000, selfShare: share(us) }))
      .sort((a, b) => b.selfMs - a.selfMs),
    areas: [...areaUs.entries()]
      .map(([area, us]) => ({ area, selfMs: us / 1000, selfShare: share(us) }))
      .sort((a, b) => b.selfMs - a.selfMs),
    inclusive: Object.fromEntries(Object.entries(inclusiveUs).map(([k, us]) => [k, us / 1000])),
    folded: [...foldedUs.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([stack, us]) => `${stack} ${Math.round(us)}`)
      .join('\n'),
  }
}
