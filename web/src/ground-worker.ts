// The grounding worker: grounds the rules off the page's thread (reporting each phase as it
// starts), tells which engine `auto` picks as soon as it knows, sends the ground program once as flat arrays, then
// answers truth-value requests for positions and stage texts. A new text means a new worker:
// the page terminates this one (Cancel too; grounding is one synchronous call).

import { GroundProgram } from '../pkg/gdl_wasm.js';
import { errorMessage, startEngineSync } from './engine';
import type { EngineChoice, GroundProgramData, GroundReply, GroundRequest, GroundSummary } from './ground-protocol';

let program: GroundProgram | null = null;

function post(m: GroundReply, transfer: Transferable[] = []): void {
  postMessage(m, transfer);
}

onmessage = (e: MessageEvent<GroundRequest>) => {
  const m = e.data;
  try {
    if (m.type === 'load') {
      startEngineSync(m.module);
      const t0 = performance.now();
      program = new GroundProgram(
        m.text,
        m.syntax,
        (phase: string) => post({ type: 'phase', phase }),
        (choice: EngineChoice) => post({ type: 'engine', choice }),
      );
      const data: GroundProgramData = {
        summary: program.summary() as GroundSummary,
        atoms: program.atoms(),
        keys: m.syntax === 'prefix' ? null : program.keys(),
        heads: program.heads(),
        starts: program.starts(),
        literals: program.literals(),
        ruleRelations: program.ruleRelations(),
        ms: performance.now() - t0,
      };
      post({ type: 'ready', data }, [data.heads.buffer, data.starts.buffer, data.literals.buffer, data.ruleRelations.buffer]);
    } else if (!program) {
      post({ type: 'error', id: m.id, message: 'the rules are not grounded yet' });
    } else if (m.type === 'evaluate') {
      const values = program.evaluate(m.fluents, m.roles, m.moves);
      post({ type: 'values', id: m.id, values }, [values.buffer]);
    } else {
      post({ type: 'stage', id: m.id, text: program.stageText(m.name) });
    }
  } catch (err) {
    post({ type: 'error', id: 'id' in m ? m.id : 0, message: errorMessage(err) });
  }
};
