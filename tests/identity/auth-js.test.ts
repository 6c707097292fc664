// The identity provider driven by a client nobody here wrote: Supabase's
// GoTrueClient (@supabase/auth-js) pointed at {base_url}/auth.
import { GoTrueClient } from "@supabase/auth-js";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedApi } from "../support/api.ts";

let api: Awaited<ReturnType<typeof sharedApi>>;
beforeAll(async () => {
  api = await sharedApi();
});

function client() {
  const memory = new Map<string, string>();
  return new GoTrueClient({
    url: `${api.baseUrl}/auth`,
    headers: { apikey: api.anonKey },
    autoRefreshToken: false,
    persistSession: true,
    storage: {
      getItem: (k) => memory.get(k) ?? null,
      setItem: (k, v) => void memory.set(k, v),
      removeItem: (k) => void memory.delete(k),
    },
  });
}

const email = () => `shopper-${Math.random().toString(36).slice(2)}@example.test`;

describe("@supabase/auth-js against {base_url}/auth", () => {
  it("signs up with e-mail and password, gets the user, refreshes and signs out", async () => {
    const auth = client();
    const address = email();
    const signUp = await auth.signUp({ email: address, password: "correct horse battery" });
    expect(signUp.error).toBeNull();
    expect(signUp.data.user?.email).toBe(address);
    expect(signUp.data.session?.access_token).toEqual(expect.any(String));
    expect(signUp.data.session?.token_type).toBe("bearer");

    const user = await auth.getUser();
    expect(user.error).toBeNull();
    expect(user.data.user?.id).toBe(signUp.data.user?.id);
    expect(user.data.user?.is_anonymous).toBe(false);

    const before = signUp.data.session!;
    const refreshed = await auth.refreshSession();
    expect(refreshed.error).toBeNull();
    expect(refreshed.data.session?.refresh_token).not.toBe(before.refresh_token);
    expect(refreshed.data.user?.id).toBe(before.user.id);

    const out = await auth.signOut();
    expect(out.error).toBeNull();
    expect((await auth.getSession()).data.session).toBeNull();

    // The refresh token of the ended session no longer works.
    const reuse = await api.post("/auth/token?grant_type=refresh_token", {
      body: { refresh_token: refreshed.data.session!.refresh_token },
    });
    expect(reuse.status).toBe(400);
  });

  it("signs in with a password", async () => {
    const address = email();
    await client().signUp({ email: address, password: "correct horse battery" });
    const auth = client();
    const res = await auth.signInWithPassword({ email: address, password: "correct horse battery" });
    expect(res.error).toBeNull();
    expect(res.data.user?.email).toBe(address);
    const wrong = await client().signInWithPassword({ email: address, password: "wrong password!" });
    expect(wrong.error?.status).toBe(400);
    expect(wrong.data.session).toBeNull();
  });

  it("signs in anonymously", async () => {
    const auth = client();
    const res = await auth.signInAnonymously();
    expect(res.error).toBeNull();
    expect(res.data.user?.is_anonymous).toBe(true);
    expect(res.data.session?.access_token).toEqual(expect.any(String));
    const user = await auth.getUser();
    expect(user.data.user?.is_anonymous).toBe(true);
  });

  it("verifies access tokens against the published JWKS (getClaims)", async () => {
    const auth = client();
    await auth.signInAnonymously();
    const claims = await auth.getClaims();
    expect(claims.error).toBeNull();
    expect(claims.data?.claims.iss).toBe(`${api.server.url}/api/v1/auth`);
    expect(claims.data?.claims.token_use).toBe("user");
  });
});
