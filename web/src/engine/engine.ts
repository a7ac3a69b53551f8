// The engine (gdl-wasm) as the page uses it: typed results, one compiled module shared with
// the playouts worker.

import init, { RefereeMatch, Session, capabilities, detectSyntax, factors, formatText, groundStageNames, initSync, largerLimits, matchGameId, matchSeats, matchTally, matchTallyByRole, matchVerdict, mergePlayouts, messageKind, noReplyText, playerCatalogue, playerLabel, protocolMessage, recordLog, ruleGraph, tournamentCsv, tournamentFinish, tournamentGameId, tournamentLeaderboard, tournamentMissing, tournamentStart } from '../../pkg/gdl_wasm.js';
import wasmUrl from '../../pkg/gdl_wasm_bg.wasm?url';

export { RefereeMatch, Session, capabilities, detectSyntax, factors, formatText, groundStageNames, largerLimits, matchGameId, matchSeats, matchTally, matchTallyByRole, matchVerdict, mergePlayouts, messageKind, noReplyText, playerCatalogue, playerLabel, protocolMessage, recordLog, ruleGraph, tournamentCsv, tournamentFinish, tournamentGameId, tournamentLeaderboard, tournamentMissing, tournamentStart };

export type {
  Capabilities,
  Catalogue,
  Chain,
  Domain,
  Explanation,
  Factors,
  Finished,
  Fixture,
  Judged,
  Knowledge,
  Leaderboard,
  Load as LoadResult,
  Located,
  Logged,
  MatchGame,
  MatchRecord,
  NoReply,
  Outcome,
  Plan,
  PlayerChoice,
  PlayerKind,
  Premise,
  Refereed,
  Report as AnalysisReport,
  RuleGraph,
  Solution,
  Standing,
  Stats,
  Summary,
  Tally,
  Terms,
  Thought,
  TournamentRecord,
  Verdict,
  View,
} from '../../pkg/gdl_wasm.js';

/** A goal value as the engine prints it (the generated `Position` names this type). */
export type GoalValue = number | string;

/** Fetches, compiles and starts the engine; the module can be sent to a worker. */
export async function startEngine(): Promise<WebAssembly.Module> {
  let module: WebAssembly.Module;
  try {
    module = await WebAssembly.compileStreaming(fetch(wasmUrl));
  } catch {
    // A server that does not send application/wasm: compile from bytes instead.
    const bytes = await (await fetch(wasmUrl)).arrayBuffer();
    module = await WebAssembly.compile(bytes);
  }
  await init({ module_or_path: module });
  return module;
}

/** Starts the engine from a module compiled elsewhere (in the worker). */
export function startEngineSync(module: WebAssembly.Module): void {
  initSync({ module });
}

/** The message of anything thrown by the engine. */
export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
