import net, { type AddressInfo, type Socket } from 'node:net'

/**
 * A TCP forwarder to `target` on a port of its own, to take a server away from a client mid-run:
 * `cut()` drops every connection and stops listening, `restore()` listens on the same port again,
 * `stall()` keeps the connections open but forwards nothing (a server that no longer answers).
 */
export async function tcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>()
  let stalled = false
  const server = net.createServer((inbound) => {
    const outbound = net.connect(target.port, target.host)
    for (const [from, to] of [
      [inbound, outbound],
      [outbound, inbound],
    ] as const) {
      sockets.add(from)
      from.on('data', (chunk) => {
        if (!stalled) to.write(chunk)
      })
      from.on('error', () => {})
      from.on('close', () => {
        sockets.delete(from)
        to.destroy()
      })
    }
  })
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) =>
      server.once('error', reject).listen(port, '127.0.0.1', () => {
        server.off('error', reject)
        resolve()
      }),
    )
  await listen(0)
  const { port } = server.address() as AddressInfo
  const cut = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve())
      for (const socket of sockets) socket.destroy()
    })
  return {
    url: `redis://127.0.0.1:${port}`,
    cut,
    restore: () => listen(port),
    stall() {
      stalled = true
    },
    close: () => (server.listening ? cut() : Promise.resolve()),
  }
}
