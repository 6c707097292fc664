// A shopper as the alert tests need one: an account (its access token), signed in
// to "My lists" on the server's pages (the wish_user cookie), with one list.
import { expect } from "vitest";
import type { Api } from "./api.ts";

export const SHOPPER_PASSWORD = "a good long password";

export async function signedInShopper(server: { url: string }, api: Api, email: string) {
  const signedUp = await api.post("/auth/signup", { body: { email, password: SHOPPER_PASSWORD } });
  expect(signedUp.status).toBe(200);
  const token = signedUp.body.access_token as string;
  const signIn = await fetch(`${server.url}/en/lists`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
    body: new URLSearchParams({ intent: "sign-in", email, password: SHOPPER_PASSWORD }),
  });
  expect(signIn.status).toBe(303);
  const cookie = /wish_user=[^;]+/.exec(signIn.headers.get("set-cookie") ?? "")![0];
  const list = await api.post("/hosted/me/lists", { token, body: { name: "Mine" } });
  return { email, userId: signedUp.body.user.id as string, token, cookie, list: list.body.list as { id: string; db_id: number } };
}
