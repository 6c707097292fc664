// Shapes of the consumer routes (account, friends, notifications, feedback):
// one source for validation and the OpenAPI document.
import { z } from "zod";
import { imageUrlSchema } from "~/lib/api/schemas";
import { FEEDBACK_CATEGORIES } from "~/domains/consumer/feedback.server";
import { NOTIFICATION_TYPES } from "~/domains/consumer/notifications.server";

const timestamp = z.string().describe("ISO 8601");

export const person = z.object({
  id: z.string(),
  displayName: z.string().nullable(),
  username: z.string().nullable(),
  avatarUrl: z.string().nullable(),
});

export const account = z.object({
  id: z.string(),
  email: z.string().nullable(),
  displayName: z.string().nullable(),
  username: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  isAnonymous: z.boolean(),
  isPremium: z.boolean(),
  spoilerProtection: z.boolean().describe("While on (the default), no item_purchased notifications"),
  createdAt: timestamp,
});

/** 3 to 30 characters: lowercase letters, digits, `_` and `-`, starting and ending with a letter or digit. */
export const username = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9_-]{1,28}[a-z0-9]$/, "3 to 30 characters a-z, 0-9, _ or -, starting and ending with a letter or digit");

export const accountChanges = z.object({
  displayName: z.string().trim().max(80).nullable().optional().describe("Blank or null clears it"),
  username: username.nullable().optional(),
  avatarUrl: imageUrlSchema.nullable().optional(),
  spoilerProtection: z.boolean().optional(),
});

export const friendRequest = z.object({
  id: z.number().int(),
  status: z.enum(["pending", "accepted", "declined", "cancelled"]),
  from: person,
  to: person,
  createdAt: timestamp,
  respondedAt: timestamp.nullable(),
});

export const friend = person.extend({ since: timestamp });

export const notification = z.object({
  id: z.number().int(),
  type: z.enum(NOTIFICATION_TYPES),
  actor: person.nullable().describe("Who caused it (null: an anonymous visitor, or a deleted account)"),
  data: z.record(z.string(), z.unknown()).describe("friend_request/friend_accepted: requestId; list_shared: listId, listName, role; item_purchased: listId, listName, itemId, title"),
  read: z.boolean(),
  readAt: timestamp.nullable(),
  createdAt: timestamp,
});

export const feedbackCategory = z.enum(FEEDBACK_CATEGORIES);

export const feedbackReceipt = z.object({ ok: z.literal(true), id: z.number().int(), createdAt: timestamp });

export const idParam = z.object({ id: z.string() });
