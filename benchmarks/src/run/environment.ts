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
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
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
