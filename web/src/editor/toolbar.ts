// The toolbar above the editor: the examples menu, prefix/infix conversion, text size, Share,
// and closing the banner.

import { byId, h } from '../dom';
import { example, exampleGroups, type Example } from './examples';

export interface ToolbarActions {
  open(example: Example): void;
  convert(to: 'prefix' | 'infix'): void;
  /** Makes the text larger (+1) or smaller (-1). */
  zoom(step: 1 | -1): void;
  share(): void;
}

export function wireToolbar(actions: ToolbarActions): void {
  const select = byId<HTMLSelectElement>('examples');
  select.append(
    ...exampleGroups().map((g) => h('optgroup', { label: g.label }, ...g.examples.map((e) => h('option', { value: e.id, title: e.summary }, e.title)))),
  );
  select.addEventListener('change', () => {
    const ex = example(select.value);
    select.value = '';
    if (ex) actions.open(ex);
  });
  byId('to-prefix').addEventListener('click', () => actions.convert('prefix'));
  byId('to-infix').addEventListener('click', () => actions.convert('infix'));
  byId('smaller').addEventListener('click', () => actions.zoom(-1));
  byId('larger').addEventListener('click', () => actions.zoom(1));
  byId('banner-close').addEventListener('click', () => (byId('banner').hidden = true));
  byId('share').addEventListener('click', () => actions.share());
}
