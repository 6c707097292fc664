// The API on node:http without Remix (app/server/main.ts calls this through
// the server build's entry): IncomingMessage → ApiRequest → route table →
// ApiReply → ServerResponse.
import type { IncomingMessage, ServerResponse } from "node:http";
import { apiRequestOfNode, sendReply } from "~/lib/api/node-adapter.server";
import { dispatchApi } from "~/api/router.server";

/** `pathname` (raw, starting with /api/v1) and `search` as the server split req.url; the context carries the client's address. */
export async function handleApiRequest(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  search: string,
  context: { clientAddress: string | null },
): Promise<void> {
  const reply = await dispatchApi(apiRequestOfNode(req, pathname, search, res), context);
  await sendReply(res, reply);
}
