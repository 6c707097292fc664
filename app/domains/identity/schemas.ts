// The identity provider's shapes (GoTrue-shaped, GUIDE section 5) as zod
// schemas, for the route descriptions and the OpenAPI document.
import { z } from "zod";

/** identity.server.ts userJson. */
export const authUserSchema = z.object({
  id: z.string(),
  aud: z.string(),
  role: z.literal("authenticated"),
  email: z.string().describe("Empty for anonymous users"),
  is_anonymous: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  last_sign_in_at: z.string().nullable(),
  app_metadata: z.object({ provider: z.enum(["anonymous", "email"]), providers: z.array(z.string()) }),
  user_metadata: z.object({ display_name: z.string().optional().describe("The name share pages and previews show; absent when none was chosen") }),
  new_email: z.string().optional().describe("After `PUT /auth/user {email}`: the address waiting for its confirmation link"),
});

/** A sign-in session: what signup, the token grants and the legacy logins answer. */
export const sessionSchema = z.object({
  access_token: z.string(),
  token_type: z.literal("bearer"),
  expires_in: z.number().int().describe("Seconds the access token is valid"),
  expires_at: z.number().int().describe("Unix time the access token expires"),
  refresh_token: z.string(),
  user: authUserSchema,
});

/** A public JSON Web Key of the token signer. */
export const jwksSchema = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });

/** What an account migration or a store customer's join moved (app/flows/account-merge.server.ts Moved). */
export const movedSchema = z.object({
  lists: z.number().int().describe("Lists that moved to the account (a default list folded into the account's is not counted)"),
  memberships: z.number().int(),
  friendships: z.number().int(),
  items: z.number().int().describe("Items the moved account had added, now the account's"),
  duplicates: z.number().int().describe("Items of a product the account's default list held already, folded into its item"),
  renamed: z.number().int().describe("Moved lists renamed because the account had a list of that name"),
});
