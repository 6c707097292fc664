// A database that stops answering, without touching the shared one:
// - PostgreSQL: a TCP proxy in the test process between the app and the
//   server; frozen, it accepts and holds connections but forwards nothing
//   (what a SIGSTOPped or partitioned server looks like to the app).
// - SQLite: another connection holding the write lock (BEGIN EXCLUSIVE), as
//   a hung process or a long-running script would.
import net from "node:net";
import Database from "better-sqlite3";

export interface StuckDatabase {
  /** The DATABASE_URL the app is given (through the proxy on PostgreSQL). */
  url: string;
  freeze(): Promise<void>;
  thaw(): Promise<void>;
  close(): Promise<void>;
}

export async function stuckDatabase(databaseUrl: string): Promise<StuckDatabase> {
  return databaseUrl.startsWith("file:") ? sqliteLock(databaseUrl) : postgresProxy(databaseUrl);
}

function sqliteLock(databaseUrl: string): StuckDatabase {
  let holder: Database.Database | null = null;
  const thaw = async () => {
    if (holder?.inTransaction) holder.exec("ROLLBACK");
    holder?.close();
    holder = null;
  };
  return {
    url: databaseUrl,
    freeze: async () => {
      holder = new Database(databaseUrl.slice("file:".length));
      holder.exec("BEGIN EXCLUSIVE");
    },
    thaw,
    close: thaw,
  };
}

async function postgresProxy(databaseUrl: string): Promise<StuckDatabase> {
  const target = new URL(databaseUrl);
  let frozen = false;
  // Bytes held back while frozen, per direction of each connection, sent on thaw.
  const held: (() => void)[] = [];
  const sockets = new Set<net.Socket>();
  const forward = (from: net.Socket, to: net.Socket) => {
    from.on("data", (chunk) => {
      if (frozen) held.push(() => to.writable && to.write(chunk));
      else if (to.writable) to.write(chunk);
    });
    from.on("close", () => to.destroy());
    from.on("error", () => to.destroy());
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    }
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(databaseUrl);
  url.host = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return {
    url: url.toString(),
    freeze: async () => {
      frozen = true;
    },
    thaw: async () => {
      frozen = false;
      for (const send of held.splice(0)) send();
    },
    close: async () => {
      frozen = false;
      held.length = 0;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
