// POST /feedback/ideas: an idea for the product (SPEC 7.6).
import { z } from "zod";
import { endpoint, json, route } from "~/api/endpoint.server";
import { MAX_IDEA_LENGTH, submitIdea } from "~/domains/consumer/feedback.server";
import { feedbackCategory, feedbackReceipt } from "./schemas";

export const loader = endpoint({
  POST: route(
    "user",
    {
      summary: `Send an idea (1 to ${MAX_IDEA_LENGTH} characters) with a category (default general)`,
      body: z.object({ idea: z.string().trim().min(1), category: feedbackCategory.default("general") }),
      codes: { missing: { idea: "invalid_idea" }, invalid: { idea: "invalid_idea", category: "invalid_category" } },
      response: feedbackReceipt,
      status: 201,
      errors: { idea_too_long: 400, submission_failed: 500 },
      example: { body: { idea: "Let me sort lists by price", category: "lists" } },
    },
    async ({ user, body }) => json(await submitIdea(user.userId, body.idea, body.category), 201),
  ),
});
export const action = loader;
