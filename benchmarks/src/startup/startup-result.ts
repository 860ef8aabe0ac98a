import type { Environment } from '../run/environment.js'
import type { StartupEmbedder } from './startup-server.js'

/** Issue 25 point 3, as `--startup` judges it (medians against these). */
export const STARTUP_TARGETS = {
  /** Empty data directory to `/health` 200, `EMBEDDER=none`. */
  healthNoneMs: 1500,
  /** The same with the default embedder (use-lite). */
  healthUseLiteMs: 2500,
  /** VmRSS of the listening process, `EMBEDDER=none`, 2 s after `/health` answered. */
  rssNoneMb: 200,
  /** `node packages/server/dist/src/cli.js --help` to exit. */
  helpMs: 500,
} as const

/** The figures issue 25 reported before the server was compiled (`npm start` through tsx), for the closing note. */
export const BEFORE_ISSUE_25 = {
  healthMs: 3900,
  rssMb: 383,
  npmHelpMs: 10_300,
  firstSearchMs: 1900,
} as const

/**
 * "The first search is as fast as later ones": the median first search is at most twice the median of the
 * later ones, or at most this many ms above it (a first request pays some JIT compilation; a model load or
 * an index build, what the target is about, costs hundreds of ms).
 */
export const FIRST_SEARCH_SLACK_MS = 50

/** One server started on an empty data directory. */
export interface HealthRun {
  readonly healthMs: number
  /**
   * CPU time (user + system, every thread) the server had used when `/health` answered: the work of
   * starting, which a loaded machine stretches in wall time but hardly changes.
   */
  readonly cpuAtHealthMs: number
  /** The same for the main thread alone (the event loop, where the start-up's serial work runs). */
  readonly mainThreadCpuAtHealthMs: number
  /** VmRSS / VmHWM of the server process when `/health` first answered 200. */
  readonly rssAtHealthMb: number
  readonly hwmAtHealthMb: number
  /** The same 2 s later (nothing asked of the server meanwhile). */
  readonly rssAfterMb: number
  readonly hwmAfterMb: number
  /** Processes the server has started (children and their children), 2 s after health. */
  readonly childProcesses: number
  /** SIGTERM to exit, and the exit code (0 expected). */
  readonly stopMs: number
  readonly exitCode: number | null
  /** 1-minute load average when the run started. */
  readonly load1: number
}

/** One server started on a copy of the seeded data directory, then searched. */
export interface SearchRun {
  readonly healthMs: number
  readonly cpuAtHealthMs: number
  readonly mainThreadCpuAtHealthMs: number
  readonly firstQuery: string
  readonly firstMs: number
  /** The ten searches after the first, each a different text. */
  readonly laterMs: readonly number[]
  /** Hits of each of the eleven searches, in order. */
  readonly hits: readonly number[]
  /** VmRSS / VmHWM after the eleven searches. */
  readonly rssAfterMb: number
  readonly hwmAfterMb: number
  readonly exitCode: number | null
  readonly load1: number
}

/** One run of a `--help` command. */
export interface HelpRun {
  readonly ms: number
  readonly code: number | null
  /** The usage text was on stdout. */
  readonly usage: boolean
}

/** Everything one `npm run bench -- --startup` measured; saved as `results/data/startup.json`. */
export interface StartupResult {
  readonly environment: Environment
  /** `os.loadavg()` (1, 5, 15 minutes) before the first and after the last run. */
  readonly loadBefore: readonly number[]
  readonly loadAfter: readonly number[]
  /** Timed runs per figure (after one untimed warm-up each). */
  readonly runs: number
  /** Paragraphs written into each seeded data directory (one `POST /ingest/` task each). */
  readonly seededTasks: number
  readonly commands: {
    readonly serve: string
    readonly help: string
    readonly npmHelp: string
  }
  readonly health: Readonly<Record<StartupEmbedder, readonly HealthRun[]>>
  readonly search: Readonly<Record<StartupEmbedder, readonly SearchRun[]>>
  readonly help: readonly HelpRun[]
  readonly npmHelp: readonly HelpRun[]
}
