import { z } from "zod";

export const domainParams = z.object({ domain: z.string().describe("The store's host name, e.g. `shop.example.com`") });
export const categoryParam = z.string().max(200).optional().describe("Only products of this category (product type)");
