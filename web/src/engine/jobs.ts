// The page's side of the worker kit (worker-kit.ts is the worker's): give a worker its task,
// hear its replies, terminate it on its last reply or on an error.

/** A worker at work: `stop` ends it, `send` gives it its next task. */
export interface Job<Request> {
  stop(): void;
  send(request: Request): void;
}

/** Gives `worker` its task; `reply` hears every message. The worker is terminated on an
 * error (`error` makes the reply) and after its last reply (every reply is, unless `more`
 * says others follow). */
export function startJob<Request, Reply>(
  worker: Worker,
  request: Request,
  reply: (m: Reply) => void,
  error: (message: string) => Reply,
  more: (m: Reply) => boolean = () => false,
): Job<Request> {
  worker.onmessage = (e: MessageEvent<Reply>) => {
    if (!more(e.data)) worker.terminate();
    reply(e.data);
  };
  worker.onerror = (e) => {
    worker.terminate();
    reply(error(e.message));
  };
  worker.postMessage(request);
  return { stop: () => worker.terminate(), send: (r) => worker.postMessage(r) };
}
