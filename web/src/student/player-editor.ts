// The player editor (loaded when My players is first opened): a CodeMirror editor for
// JavaScript with completion of the API (completion.ts, read from api.ts), the players kept by
// name (store.ts), New / Save / Delete / Export, and a player's link (opt-in). A player from a
// link is shown, not run: it is kept and offered at the seats only when Run is pressed.

import { autocompletion, closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { javascript } from '@codemirror/lang-javascript';
import { bracketMatching, indentOnInput, syntaxHighlighting, defaultHighlightStyle } from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { EditorView, keymap, lineNumbers } from '@codemirror/view';
import { h } from '../dom';
import apiSource from './api.ts?raw';
import { STARTER } from './api';
import { apiMembers, gameCompletion } from './completion';
import { acceptPending, exportPlayer, listPlayers, pendingPlayer, playerLink, removePlayer, savePlayer, type StudentPlayer } from './store';
import { downloadGgpPlayer } from './export';
import './student.css';

export class PlayerEditor {
  #view: EditorView;
  #name = h('input', { type: 'text', class: 'player-name', 'aria-label': 'Name of the player', maxlength: '60', spellcheck: 'false' });
  #list = h('select', { class: 'player-list', 'aria-label': 'My players' });
  #notice = h('p', { class: 'player-notice', role: 'status' });
  #run = h('button', { type: 'button', class: 'player-run', hidden: true }, 'Run');
  #shareTick = h('input', { type: 'checkbox', class: 'player-share' });
  #link = h('input', { type: 'text', class: 'player-link', readonly: true, hidden: true, 'aria-label': 'Link to this player' });

  constructor(parent: HTMLElement) {
    const members = apiMembers(apiSource);
    const host = h('div', { class: 'player-code' });
    this.#view = new EditorView({
      parent: host,
      state: EditorState.create({
        doc: STARTER,
        extensions: [
          lineNumbers(),
          history(),
          indentOnInput(),
          bracketMatching(),
          closeBrackets(),
          javascript(),
          syntaxHighlighting(defaultHighlightStyle),
          autocompletion({ override: [gameCompletion(members)] }),
          keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, indentWithTab]),
          EditorView.contentAttributes.of({ 'aria-label': 'Player code (JavaScript)', spellcheck: 'false' }),
          // A link shown follows the code.
          EditorView.updateListener.of((u) => {
            if (u.docChanged && this.#shareTick.checked) this.#share();
          }),
        ],
      }),
    });
    const button = (label: string, onclick: () => void, cls = '') => h('button', { type: 'button', class: `small ${cls}`, onclick }, label);
    this.#list.addEventListener('change', () => this.#open(this.#list.value));
    this.#run.addEventListener('click', () => this.#accept());
    this.#shareTick.addEventListener('change', () => this.#share());
    parent.replaceChildren(
      h('div', { class: 'player-bar' }, this.#list, this.#name, button('New', () => this.#fresh()), button('Save', () => this.#save(), 'player-save'), this.#run, button('Delete', () => this.#delete()), button('Export', () => exportPlayer(this.#player())), button('Download as a GGP player', () => void downloadGgpPlayer(this.#player()), 'player-ggp')),
      this.#notice,
      host,
      h('p', { class: 'player-share-row' }, h('label', { class: 'small' }, this.#shareTick, ' Share this player by link'), this.#link),
      h('p', { class: 'muted small' }, 'A saved player is offered at every seat as "my player: NAME". It runs in a sandbox, with the play clock: type game. for the API.'),
    );
    addEventListener('student-link', () => this.#showPending());
    if (!this.#showPending()) this.#open(listPlayers()[0]?.name ?? '');
  }

  /** Shows `code` as a new player named `name`, not saved. */
  draft(name: string, code: string): void {
    this.#open('');
    this.#name.value = name;
    this.#setCode(code);
  }

  /** The code in the editor. */
  code(): string {
    return this.#view.state.doc.toString();
  }

  #player(): StudentPlayer {
    return { name: this.#name.value.trim() || 'my player', code: this.#view.state.doc.toString() };
  }

  #setCode(code: string): void {
    this.#view.dispatch({ changes: { from: 0, to: this.#view.state.doc.length, insert: code } });
  }

  #renderList(selected: string): void {
    const players = listPlayers();
    this.#list.replaceChildren(h('option', { value: '', selected: selected === '' }, players.length ? 'open…' : 'no player saved yet'), ...players.map((p) => h('option', { value: p.name, selected: p.name === selected }, p.name)));
  }

  #open(name: string): void {
    const p = listPlayers().find((x) => x.name === name);
    this.#name.value = p?.name ?? 'my player';
    this.#setCode(p?.code ?? STARTER);
    this.#run.hidden = true;
    this.#notice.textContent = '';
    this.#renderList(p?.name ?? '');
  }

  #fresh(): void {
    this.#open('');
    this.#name.value = `player ${listPlayers().length + 1}`;
  }

  /** A player from a link: its code shown, waiting for Run. */
  #showPending(): boolean {
    const p = pendingPlayer();
    if (!p) return false;
    this.#name.value = p.name;
    this.#setCode(p.code);
    this.#run.hidden = false;
    this.#notice.textContent = `"${p.name}" came with a link. Read its code: it runs only when you press Run.`;
    this.#notice.classList.add('warn');
    this.#renderList('');
    return true;
  }

  #accept(): void {
    acceptPending(this.#player());
    this.#afterSave('kept, and offered at the seats');
  }

  #save(): void {
    savePlayer(this.#player());
    this.#afterSave('saved');
  }

  #afterSave(what: string): void {
    this.#run.hidden = true;
    this.#notice.classList.remove('warn');
    this.#notice.textContent = `"${this.#player().name}" ${what}.`;
    this.#renderList(this.#player().name);
  }

  #delete(): void {
    removePlayer(this.#player().name);
    this.#open(listPlayers()[0]?.name ?? '');
  }

  #share(): void {
    this.#link.hidden = !this.#shareTick.checked;
    if (this.#shareTick.checked) this.#link.value = playerLink(this.#player());
  }
}
