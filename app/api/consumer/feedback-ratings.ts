// POST /feedback/ratings: a 1-5 rating with an optional category and comment (SPEC 7.6).
import { z } from "zod";
import { endpoint, json, route } from "~/api/endpoint.server";
import { MAX_IDEA_LENGTH, submitRating } from "~/domains/consumer/feedback.server";
import { feedbackCategory, feedbackReceipt } from "./schemas";

export const loader = endpoint({
  POST: route(
    "user",
    {
      summary: "Send a rating from 1 to 5, with an optional category (default general) and comment",
      body: z.object({
        rating: z.number().int().min(1).max(5),
        category: feedbackCategory.default("general"),
        comment: z.string().trim().max(MAX_IDEA_LENGTH).nullable().optional(),
      }),
      codes: { missing: { rating: "invalid_rating" }, invalid: { rating: "invalid_rating", category: "invalid_category" } },
      response: feedbackReceipt,
      status: 201,
      errors: { submission_failed: 500 },
      example: { body: { rating: 5, category: "widget" } },
    },
    async ({ user, body }) => json(await submitRating(user.userId, body.rating, body.category, body.comment || null), 201),
  ),
});
export const action = loader;
