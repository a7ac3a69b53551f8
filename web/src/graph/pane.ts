// The Rule graph tab: draws the graph of the rules the editor holds when the tab is shown
// after they changed (the drawing library loads then, not before), and highlights a relation
// asked for from the Grounded rules pane.

import { byId } from '../dom';
import { errorMessage, ruleGraph } from '../engine/engine';
import { toast } from '../notices';

export class GraphPane {
  #stale = true;
  /** A relation to highlight once the graph is drawn. */
  #focus: string | null = null;

  /** The rules changed: the graph is drawn again when next shown. */
  invalidate(): void {
    this.#stale = true;
  }

  /** Highlights `relation` when the tab is next shown. */
  highlight(relation: string): void {
    this.#focus = relation;
  }

  /** The tab is shown with the rules `text`: draws what changed. */
  show(text: string): void {
    if (this.#stale) {
      this.#stale = false;
      void this.#draw(text);
    } else if (this.#focus) {
      void this.#showFocus();
    }
  }

  /** Highlights the relation asked for from the grounded-rules pane. */
  async #showFocus(): Promise<void> {
    const id = this.#focus;
    this.#focus = null;
    if (!id) return;
    const { highlightRelation } = await import('./graph');
    if (!highlightRelation(byId('graph'), id)) toast(`${id} is not in the rule graph: the grounder made it (a part of a rule, or a copy for some constants).`);
  }

  async #draw(text: string): Promise<void> {
    const msg = byId('graph-message');
    let graph;
    try {
      graph = ruleGraph(text);
    } catch (e) {
      msg.textContent = errorMessage(e);
      msg.hidden = false;
      return;
    }
    msg.hidden = true;
    const { drawGraph } = await import('./graph');
    drawGraph(byId('graph'), graph);
    if (this.#focus) void this.#showFocus();
  }
}
