// `npm run db:migrate`: applies pending migrations to DATABASE_URL.
import { migrate } from "../../app/db/migrate.server.ts";

const url = process.env.DATABASE_URL ?? "file:./data/wishlist.db";
const result = await migrate(url);
console.log(JSON.stringify(result));
