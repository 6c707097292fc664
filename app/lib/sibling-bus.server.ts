// Messages between the worker processes of one instance (WEB_CONCURRENCY,
// node:cluster): a worker that changed something other workers hold in
// memory (a cached key configuration, a revocation) tells them at once; the
// primary (app/server/cluster.ts) relays each message to every other worker.
// Other instances learn the same through their own polls and TTLs. Without a
// cluster both functions do nothing.
import cluster from "node:cluster";

export const SIBLING_MESSAGE = "wish:sibling";

interface SiblingMessage {
  type: typeof SIBLING_MESSAGE;
  topic: string;
  payload: unknown;
}

const handlers = new Map<string, (payload: unknown) => void>();

if (cluster.isWorker) {
  process.on("message", (message: SiblingMessage) => {
    if (message?.type === SIBLING_MESSAGE) handlers.get(message.topic)?.(message.payload);
  });
}

/** Runs `handler` with the payload of every `topic` message another worker sends. One handler per topic. */
export function onSiblingMessage<T>(topic: string, handler: (payload: T) => void): void {
  if (handlers.has(topic)) throw new Error(`sibling topic ${topic} has a handler already`);
  handlers.set(topic, handler as (payload: unknown) => void);
}

/** Sends `payload` (JSON-serialisable) to the other workers' `topic` handlers. */
export function tellSiblings(topic: string, payload: unknown): void {
  if (cluster.isWorker && process.connected) process.send!({ type: SIBLING_MESSAGE, topic, payload } satisfies SiblingMessage);
}
