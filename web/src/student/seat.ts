// A student's player at a seat: the GGP messages of core's referee (remote-seat.ts, as for a
// remote player) are answered by the player's sandbox instead of over HTTP, and what the
// player logs goes into the seat's message log. The sandbox is opened at the first message
// and closed with the seat.

import { playerLabel } from '../engine/engine';
import type { Remote } from '../players/protocol';
import type { MessageLog } from '../players/remote';
import type { Transport } from '../players/remote-seat';
import { randomSeed } from '../players/protocol';
import type { LogEntry } from './api';
import type { Sandbox } from './sandbox';
import { findPlayer, listPlayers } from './store';

/** The prefix of a seat's menu value that names a student's player. */
export const MY_PLAYER = 'my:';

/** The student's players as entrants of a menu (a seat's, a match's): `value` is
 * `MY_PLAYER` + the name (reach it with `studentTransport`), `label` says "my player: NAME". */
export function studentEntrants(): { value: string; label: string }[] {
  return listPlayers().map((p) => ({ value: MY_PLAYER + p.name, label: `my player: ${p.name}` }));
}

/** The menu entry that opens the player editor (`MY_PLAYER` alone). */
export const WRITE_PLAYER = { value: MY_PLAYER, label: 'my player: write one…' };

/** The seat's clocks and status for the player named `name` (3 s a move). */
export function newStudentRemote(name: string): Remote {
  return { url: `my player ${name}`, target: 'sandbox', status: 'ready', startClock: 10, playClock: 3 };
}

/** One line of a player's log, as the message log shows it. */
export function logLine(who: string, e: LogEntry): string {
  const values = e.values === null ? '' : ` ${JSON.stringify(e.values)}`;
  return `${who} logs at step ${e.step + 1}, after ${Math.round(e.millis)} ms: ${e.text}${values}`;
}

/** Opens a sandbox for the student's player named `name` (the one way every face does); if
 * its code does not load, `fault` hears why, under `who` (by default its label). */
export async function openStudent(name: string, fault: (line: string) => void, who = playerLabel(MY_PLAYER + name)): Promise<Sandbox> {
  const { Sandbox } = await import('./sandbox');
  const { sandbox, error } = await Sandbox.open(findPlayer(name)?.code ?? '', randomSeed());
  if (error) fault(`${who}: ${error}`);
  return sandbox;
}

/** Messages to the player named `name`, answered in its sandbox; its logs go to `log` under `who()`. */
export function studentTransport(name: string, log: MessageLog, who: () => string): Transport {
  let opened: Promise<Sandbox> | null = null;
  return {
    async post(message: string, clock: number) {
      opened ??= openStudent(name, (line) => log.fault(line), who());
      const sandbox = await opened;
      const at = Date.now();
      const ran = await sandbox.post(message, clock);
      const said = ran.logs.map((entry) => logLine(who(), entry));
      return { to: who(), message, reply: ran.reply, failure: ran.failure, millis: ran.millis, at, said };
    },
    end(): void {
      void opened?.then((s) => s.close());
      opened = null;
    },
  };
}
