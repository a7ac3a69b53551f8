// The grounding worker: loads the rules and tells which engine `auto` picks (about a second at
// most, after every edit); on request grounds them fully (reporting each stage as it starts),
// sends the ground program once as flat arrays, then answers truth-value requests for
// positions and stage texts. A new text means a new worker: the page terminates this one
// (Cancel too; grounding is one synchronous call).

import { GroundGame, GroundProgram } from '../../pkg/gdl_wasm.js';
import { serve, startOnce } from '../engine/worker-kit';
import type { EngineChoice, GroundProgramData, GroundReply, GroundRequest, GroundSummary } from './protocol';

let game: GroundGame | null = null;
let program: GroundProgram | null = null;

function post(m: GroundReply, transfer: Transferable[] = []): void {
  postMessage(m, transfer);
}

serve<GroundRequest>((m) => {
  if (m.type === 'load') {
    startOnce(m.module);
    game = new GroundGame(m.text);
    post({ type: 'engine', choice: game.choice() as EngineChoice });
  } else if (m.type === 'ground') {
    if (!game) throw new Error('the rules are not loaded');
    const t0 = performance.now();
    const p = game.ground(m.syntax, m.scale, (stage: string) => post({ type: 'phase', phase: stage }));
    program = p;
    const data: GroundProgramData = {
      summary: p.summary() as GroundSummary,
      atoms: p.atoms(),
      keys: m.syntax === 'prefix' ? null : p.keys(),
      texts: p.ruleTexts(),
      heads: p.heads(),
      starts: p.starts(),
      literals: p.literals(),
      ruleRelations: p.ruleRelations(),
      ms: performance.now() - t0,
    };
    post({ type: 'ready', data }, [data.heads.buffer, data.starts.buffer, data.literals.buffer, data.ruleRelations.buffer]);
  } else if (!program) {
    post({ type: 'error', id: m.id, message: 'the rules are not grounded yet' });
  } else if (m.type === 'evaluate') {
    const values = program.evaluate(m.fluents, m.roles, m.moves);
    post({ type: 'values', id: m.id, values }, [values.buffer]);
  } else if (m.type === 'factors') {
    const { ofAtom, names } = program.atomFactors();
    post({ type: 'factors', id: m.id, ofAtom, names }, [ofAtom.buffer]);
  } else {
    post({ type: 'stage', id: m.id, text: program.stageText(m.name) });
  }
}, (message, m): GroundReply => ({ type: 'error', id: 'id' in m ? m.id : 0, message }));
