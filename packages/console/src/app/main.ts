import { createEngramClient } from '@engram/client'

/** Entry of the browser bundle. */
const root = document.getElementById('app')!
const engram = createEngramClient({ baseUrl: new URL('..', location.href).href })
const health = await engram.GET('/health')
root.textContent = `Engram ${health.version}`
