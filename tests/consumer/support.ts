// The consumer routes' files on the run's shared server (each with users of its own), or on a server of
// its own for the file that drops tables. Each file checks the server's log: every error code one of
// these routes gave must be declared on the route ("undocumented error code" never appears).
import { afterAll, beforeAll, expect } from "vitest";
import { apiFor, sharedApi, type Api } from "../support/api.ts";
import { startServer, type TestServer } from "../support/server.ts";

export interface Consumer {
  userId: string;
  accessToken: string;
  refreshToken: string;
}

export interface ConsumerContext {
  api: Api;
  server: Pick<TestServer, "url" | "baseUrl" | "databaseUrl" | "output">;
  /** A new anonymous user. */
  user: () => Promise<Consumer>;
  /** A new user signed up with e-mail and password. */
  emailUser: (email?: string) => Promise<Consumer & { email: string; password: string }>;
}

let counter = 0;

/** The shared server, or with `own` a server of the file's own (for what changes the whole database, such as dropped tables). */
export function consumerServer(options: { own?: boolean } = {}): ConsumerContext {
  const ctx = {} as ConsumerContext;
  let own: TestServer | undefined;
  beforeAll(async () => {
    if (options.own) {
      ctx.server = own = await startServer();
      ctx.api = await apiFor(own);
    } else {
      const shared = await sharedApi();
      ctx.api = shared;
      ctx.server = shared.server;
    }
    ctx.user = () => ctx.api.anonymousUser();
    ctx.emailUser = async (email = `consumer-${process.pid}-${Date.now()}-${++counter}@example.com`) => {
      const password = "correct horse battery";
      const res = await ctx.api.post("/auth/signup", { body: { email, password } });
      expect(res.status).toBe(200);
      return { userId: res.body.user.id, accessToken: res.body.access_token, refreshToken: res.body.refresh_token, email, password };
    };
  });
  afterAll(async () => {
    await own?.stop();
    // Only this group's routes: the others are described elsewhere.
    const undocumented = ctx.server
      .output()
      .split("\n")
      .filter((line) => line.includes("undocumented error code") && /"path":"\/api\/v1\/(account|friends|notifications|feedback)\b/.test(line));
    expect(undocumented).toEqual([]);
  });
  return ctx;
}

/** A list of `owner`, public when asked; returns its share token. */
export async function createList(api: Api, owner: Consumer, opts: { name?: string; public?: boolean } = {}): Promise<string> {
  const created = await api.post("/hosted/me/lists", { token: owner.accessToken, body: { name: opts.name ?? "Birthday" } });
  expect(created.status).toBe(200);
  if (opts.public) {
    const shared = await api.put(`/hosted/lists/${created.body.token}`, { token: owner.accessToken, body: { share_public: true } });
    expect(shared.status).toBe(200);
  }
  return created.body.token;
}

/** A manual item on the list; returns its item_id. */
export async function addManualItem(api: Api, user: Consumer, listToken: string, title = "Teapot"): Promise<number> {
  const res = await api.post(`/hosted/lists/${listToken}/items/manual`, { token: user.accessToken, body: { title } });
  expect(res.status).toBe(200);
  return res.body.item.item_id;
}

/** Makes two users friends through a friend request and its acceptance. */
export async function makeFriends(api: Api, a: Consumer, b: Consumer): Promise<void> {
  const sent = await api.post("/friends/requests", { token: a.accessToken, body: { friendId: b.userId } });
  expect(sent.status).toBe(200);
  const accepted = await api.post(`/friends/requests/${sent.body.request.id}/accept`, { token: b.accessToken });
  expect(accepted.status).toBe(200);
}
