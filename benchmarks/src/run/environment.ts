import { readFileSync } from 'node:fs'
import { cpus, loadavg, platform, release, totalmem } from 'node:os'

/** The machine a number was measured on; recorded in every run and results file. */
export interface Environment {
  readonly cpu: string
  readonly cores: number
  readonly memoryGb: number
  readonly node: string
  readonly os: string
  readonly date: string
  /**
   * 1-minute load average when the run started (absent in runs saved before it was recorded). Above the core
   * count, other processes were competing for the CPU and latency figures are pessimistic.
   */
  readonly load1?: number
}

export function captureEnvironment(now = new Date()): Environment {
  const list = cpus()
  const isa = vectorInstructions()
  const model = list[0]?.model.trim() ?? 'unknown'
  return {
    cpu: isa === null ? model : `${model} (${isa})`,
    cores: list.length,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    os: `${platform()} ${release()}`,
    date: now.toISOString(),
    load1: Math.round(loadavg()[0]! * 100) / 100,
  }
}

/** One line for a results file: `Environment: <cpu>, 2 cores, ... ; load 1.23 at start; <date>.` */
export function environmentLine(env: Environment): string {
  const load =
    env.load1 === undefined ? '' : `; 1-min load average ${env.load1.toFixed(2)} at start`
  return `Environment: ${env.cpu}, ${env.cores} cores, ${env.memoryGb} GB, Node ${env.node}, ${env.os}${load}; ${env.date}.`
}

/**
 * The widest x86 vector instructions that change measured figures, from /proc/cpuinfo: ONNX Runtime's
 * integer products (use-lite's int8 graph) and float kernels run differently with AVX-512 and VNNI,
 * and machines of one model name come with and without them. Null off Linux x86.
 */
export function vectorInstructions(cpuinfo = readCpuinfo()): string | null {
  const flags = new Set(/^flags\s*:(.*)$/m.exec(cpuinfo)?.[1]?.trim().split(/\s+/) ?? [])
  if (flags.size === 0) return null
  const vnni = flags.has('avx512_vnni') ? 'AVX-512 VNNI' : flags.has('avx_vnni') ? 'AVX-VNNI' : null
  const widest = flags.has('avx512f') ? 'AVX-512' : flags.has('avx2') ? 'AVX2' : null
  if (widest === null) return null
  return vnni === null
    ? `${widest}, no VNNI`
    : vnni.startsWith(widest)
      ? vnni
      : `${widest}, ${vnni}`
}

function readCpuinfo(): string {
  try {
    return readFileSync('/proc/cpuinfo', 'utf8')
  } catch {
    return ''
  }
}
