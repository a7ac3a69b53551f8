// The upgrade of a long run on the reasoner (Playouts, Match): a run still going after
// UPGRADE_AFTER_MS starts one more worker that opens the game with `auto`; if auto picks the
// network, or kept the reasoner only for its own bounds and the game ground in full gives a
// network measured faster, the run hands that worker what is left. Rules that gave no
// network are not tried again.

/** Milliseconds a run plays before a worker grounds the game in full. */
export const UPGRADE_AFTER_MS = 1000;

/** The worker grounding the game in full, as the controller sees it. */
export interface Upgrader {
  stop(): void;
}

export class UpgradeController {
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** The worker grounding in full, until it answers. */
  #upgrader: Upgrader | null = null;
  /** Rules whose full grounding gave no faster network. */
  #noUpgrade: string | null = null;

  /** Times a run on `rules`: after UPGRADE_AFTER_MS, starts the worker `launch` makes, which
   * calls `answered` when it has grounded the game (`moved`: it plays on the network, with
   * `note` saying why) or `failed`. `moved` gets the worker that moved; it is the run's now. */
  schedule<W extends Upgrader>(
    rules: string,
    launch: (answered: (moved: boolean, note: string) => void, failed: () => void) => W,
    moved: (worker: W, note: string) => void,
  ): void {
    this.stop();
    if (rules === this.#noUpgrade) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      const worker = launch(
        (ok, note) => {
          if (this.#upgrader !== worker) return;
          this.#upgrader = null;
          if (ok) return moved(worker, note);
          this.#noUpgrade = rules;
          worker.stop();
        },
        () => {
          if (this.#upgrader === worker) this.stop();
        },
      );
      this.#upgrader = worker;
    }, UPGRADE_AFTER_MS);
  }

  /** Ends the full grounding, if one is running or waiting to start. */
  stop(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#upgrader?.stop();
    this.#upgrader = null;
  }
}
