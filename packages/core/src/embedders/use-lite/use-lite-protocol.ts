/** Messages between the use-lite pool (main thread) and its workers (`use-lite-worker.ts`). */

/** Main to worker: embed these texts. */
export interface EmbedRequest {
  id: number
  texts: string[]
  /** Pieces each text is cut to (`UseLiteTokenizer`). */
  maxTokens: number
}

/** Worker to main. `vectors` holds `count` unit vectors of 512 floats back to back (its buffer is transferred). */
export type WorkerMessage =
  | { type: 'ready'; loadMs: number }
  | { type: 'load-failed'; message: string }
  | { type: 'result'; id: number; count: number; vectors: Float32Array }
  | { type: 'error'; id: number; message: string }
