// Ideas and ratings from the consumer apps (SPEC 7.6).
import { db } from "~/db.server";
import { badRequest } from "~/lib/api/errors";
import { dbStep } from "./people";

export const FEEDBACK_CATEGORIES = ["general", "widget", "lists", "sharing", "shop", "other"] as const;
export type FeedbackCategory = (typeof FEEDBACK_CATEGORIES)[number];
export const MAX_IDEA_LENGTH = 2000;

export async function submitIdea(userId: string, idea: string, category: FeedbackCategory) {
  if (idea.length > MAX_IDEA_LENGTH) throw badRequest("idea_too_long", `idea must be at most ${MAX_IDEA_LENGTH} characters`);
  const row = await dbStep("submission_failed", "store the idea", () =>
    db.feedback.create({ data: { userId, kind: "idea", category, text: idea }, select: { id: true, createdAt: true } }),
  );
  return { ok: true as const, id: row.id, createdAt: row.createdAt.toISOString() };
}

export async function submitRating(userId: string, rating: number, category: FeedbackCategory, comment: string | null) {
  const row = await dbStep("submission_failed", "store the rating", () =>
    db.feedback.create({ data: { userId, kind: "rating", category, rating, text: comment }, select: { id: true, createdAt: true } }),
  );
  return { ok: true as const, id: row.id, createdAt: row.createdAt.toISOString() };
}
