import net from 'node:net';

/**
 * A TCP round-robin balancer in front of a service's instances, standing in for a Kubernetes Service: the BFF (and
 * payments' call to questions) take one URL per service, so with two instances each new connection goes to the next
 * instance that accepts it. An instance that refuses (killed, restarting) is skipped; a connection open on an
 * instance that dies is reset, as it would be behind a real load balancer.
 */
export class TcpBalancer {
  private readonly server: net.Server;
  private readonly backends: number[] = [];
  private readonly sockets = new Set<net.Socket>();
  private next = 0;
  port = 0;

  constructor(readonly name: string) {
    this.server = net.createServer((client) => this.accept(client));
  }

  async listen(port: number): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => resolve());
    });
    const address = this.server.address();
    this.port = typeof address === 'object' && address ? address.port : port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  add(port: number): void {
    if (!this.backends.includes(port)) this.backends.push(port);
  }

  remove(port: number): void {
    const index = this.backends.indexOf(port);
    if (index >= 0) this.backends.splice(index, 1);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    this.track(client);
    client.on('error', () => client.destroy());
    client.pause();
    const candidates = this.backends.length;
    const start = this.next++;
    const attempt = (tried: number) => {
      if (tried >= candidates || client.destroyed) {
        client.destroy();
        return;
      }
      const port = this.backends[(start + tried) % this.backends.length];
      if (port === undefined) {
        client.destroy();
        return;
      }
      const upstream = net.connect({ port, host: '127.0.0.1' });
      let connected = false;
      upstream.on('error', () => {
        // Refused before connecting: try the next instance. After connecting: the client sees a reset.
        if (connected) client.destroy();
        else attempt(tried + 1);
      });
      upstream.once('connect', () => {
        connected = true;
        this.track(upstream);
        client.pipe(upstream);
        upstream.pipe(client);
        client.once('close', () => upstream.destroy());
        upstream.once('close', () => client.destroy());
        client.resume();
      });
    };
    attempt(0);
  }

  private track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }
}
