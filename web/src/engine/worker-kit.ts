// The worker kit, inside every worker of the page: start the engine once from the module the
// page compiled, open a session on rules + engine + moves, answer each task (what a task
// throws goes back as an error reply). The page's side is jobs.ts.

import { Session, errorMessage, startEngineSync } from './engine';

let started = false;

/** Starts the engine in this worker from the module the page compiled, once per worker. */
export function startOnce(module: WebAssembly.Module): void {
  if (started) return;
  startEngineSync(module);
  started = true;
}

/** A session of its own on `rules`, playing on `engine` (`reasoner`: the session's default)
 * with `moves` replayed; throws when the rules have errors. `note` says which engine plays
 * and why. */
export function openSession(rules: string, engine: string, moves: string[][] = []): { session: Session; roles: string[]; note: string } {
  const session = new Session();
  const loaded = session.load(rules);
  if (!loaded.ok) {
    session.free();
    throw new Error('the rules have errors: fix them first');
  }
  const note = engine === 'reasoner' ? 'reasoner' : session.setEngine(engine);
  session.replay(moves);
  return { session, roles: loaded.roles, note };
}

/** Answers every message from the page with `task`; what it throws is posted as the reply
 * `error` makes of its message. */
export function serve<Request>(task: (request: Request) => void, error: (message: string, request: Request) => unknown): void {
  onmessage = (e: MessageEvent<Request>) => {
    try {
      task(e.data);
    } catch (err) {
      postMessage(error(errorMessage(err), e.data));
    }
  };
}
