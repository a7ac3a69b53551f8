// Browser tests of what strangers can send the page: hostile share links (cut off, not
// base64, zip bombs, invalid UTF-8), game text full of HTML, inline script (the
// Content-Security-Policy), and work too long for the main thread (time limit, workers and
// Cancel). In each case the page says what is wrong and stays usable with the text intact.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createDeflateRaw, deflateRawSync } from 'node:zlib';
import { DIST } from '../../web/serve.mjs';
import { openPage, setRules, useBrowser, shot } from './lib.mjs';

const env = useBrowser();

const editorText = (page) => page.evaluate(() => window.gdlPlayground.text());

/** A share link holding these compressed bytes. */
const link = (bytes) => `${env.url}#g1.${Buffer.from(bytes).toString('base64url')}`;

/** `size` zero bytes, raw-deflated a slice at a time (1 GB gives about 1 MB). */
function deflatedZeros(size) {
  return new Promise((ok, fail) => {
    const z = createDeflateRaw({ level: 9 });
    const out = [];
    z.on('data', (c) => out.push(c));
    z.on('end', () => ok(Buffer.concat(out)));
    z.on('error', fail);
    const slice = Buffer.alloc(1 << 24);
    for (let i = 0; i < size / slice.length; i++) z.write(slice);
    z.end();
  });
}

const MY_RULES = '; my own game, not saved anywhere else\n(role me)\n(init (count 0))\n(<= (legal me wait) (true (count 0)))\n(<= (next (count 1)) (does me wait))\n(<= terminal (true (count 1)))\n(goal me 100)\n';

test('hostile share links (cut off, not base64, a zip bomb, invalid UTF-8) get a clear message; the saved work stays', async () => {
  const json = (rules) => Buffer.from(JSON.stringify({ r: rules, m: [], s: 0 }));
  const good = link(deflateRawSync(json(MY_RULES)));
  const bomb = await deflatedZeros(1 << 30);
  const hostile = [
    ['cut off', good.slice(0, good.length - 25), /damaged or incomplete/],
    ['not base64', `${env.url}#g1.<script>alert(1)</script>`, /characters that share links never have/],
    ['not base64 (bad length)', `${env.url}#g1.A`, /damaged or incomplete/],
    ['zip bomb (1 GB)', link(bomb), /too large to open: its rules are over 4 MB/],
    ['invalid UTF-8', link(deflateRawSync(Buffer.concat([Buffer.from('{"r":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","m":[]}')]))), /not valid text \(UTF-8\)/],
    ['not our JSON', link(deflateRawSync(Buffer.from('{"r": 42}'))), /damaged/],
  ];
  assert.ok(link(bomb).length < 2_000_000, 'the bomb fits in a link');

  const { context, page, errors } = await openPage(env.browser, env.url);
  await setRules(page, MY_RULES);
  await page.locator('#status', { hasText: '1 role (me)' }).waitFor();
  await page.waitForTimeout(500); // autosave
  for (const [what, url, message] of hostile) {
    const t0 = Date.now();
    await page.goto('about:blank'); // a new page load, not a jump within the page
    await page.goto(url);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 15_000 });
    await page.locator('#banner').waitFor();
    assert.match(await page.locator('#banner-text').textContent(), message, what);
    assert.match(await page.locator('#banner-text').textContent(), /Showing your last saved rules instead/, what);
    assert.equal(await editorText(page), MY_RULES, `${what}: the saved rules are back`);
    assert.match(await page.locator('#status').textContent(), /Valid: 1 role \(me\)/, what);
    if (what.startsWith('zip')) {
      await shot(page, 'zip-bomb-link');
      assert.ok(Date.now() - t0 < 15_000, `a zip bomb is refused quickly (${Date.now() - t0} ms)`);
    }
  }
  // A good link still opens.
  await page.goto('about:blank');
  await page.goto(good);
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await editorText(page), MY_RULES);
  assert.deepEqual(errors, []);
  await context.close();
});

/** Game text that would run script or make elements if it ever reached the page as HTML. */
const HTML_GAME = [
  '; <script>window.__xss = "comment"</script>',
  '(role <img/src/onerror=window.__xss=1>)',
  '(role <b>bold</b>)',
  '(init (cell <i>1</i> <svg/onload=window.__xss=2>))',
  '(<= (legal ?r <u>press</u>) (role ?r))',
  '(<= (next (cell <i>1</i> done)) (does ?r <u>press</u>))',
  '(<= terminal (true (cell <i>1</i> done)))',
  '(<= (goal ?r 100) (role ?r) <em>undefined</em>)',
].join('\n');

test('game text, move names and messages are shown as text, never as HTML', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  await setRules(page, HTML_GAME);
  await page.locator('#status', { hasText: '<b>bold</b>' }).waitFor();
  const status = await page.locator('#status').textContent();
  assert.ok(status.includes('<img/src/onerror=window.__xss=1>, <b>bold</b>'), status);
  // The warning about the undefined relation quotes it.
  assert.match(await page.locator('#problems').textContent(), /<em>undefined<\/em>/);
  assert.match(await page.locator('#fluents').textContent(), /\(cell <i>1<\/i> <svg\/onload=window.__xss=2>\)/);
  assert.match(await page.locator('#moves').textContent(), /<img\/src\/onerror=window.__xss=1>: <u>press<\/u>/);
  await page.locator('#random').click();
  await page.locator('#outcome', { hasText: 'Game over' }).waitFor();
  assert.match(await page.locator('#history').textContent(), /<u>press<\/u>/);

  await page.locator('#tab-playouts').click();
  await page.locator('#po-count').fill('20');
  await page.locator('#po-run').click();
  await page.locator('#po-results .phase.done').waitFor({ timeout: 30_000 });
  assert.match(await page.locator('#po-results').textContent(), /<b>bold<\/b>/);
  await page.locator('#tab-ground').click();
  await page.locator('#ground-list .vrow').first().waitFor({ timeout: 30_000 });
  await page.locator('#gv-text').fill('press');
  assert.match(await page.locator('#ground-list').textContent(), /<u>press<\/u>/);
  await page.locator('#share').click();
  const shared = await page.locator('#share-link').inputValue();
  await page.keyboard.press('Escape');

  // The same text through a share link, in a fresh page.
  const b = await openPage(env.browser, shared);
  assert.equal(await editorText(b.page), HTML_GAME);
  for (const p of [page, b.page]) {
    const found = await p.evaluate(() => ({
      elements: document.querySelectorAll('img, b, i, u, em, svg, script:not([src])').length,
      xss: window.__xss,
    }));
    assert.deepEqual(found, { elements: 0, xss: undefined });
  }
  await shot(page, 'html-as-text');
  assert.deepEqual(errors, []);
  assert.deepEqual(b.errors, []);
  await b.context.close();
  await context.close();
});

test('the Content-Security-Policy forbids inline script, and the built page needs none', async () => {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const csp = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)"/)?.[1];
  assert.ok(csp, 'dist/index.html has a CSP');
  const scriptSrc = csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src'));
  assert.ok(scriptSrc && !scriptSrc.includes("'unsafe-inline'") && !scriptSrc.includes("'unsafe-eval'"), scriptSrc);
  // Vite's output: every script is a file.
  for (const tag of html.match(/<script\b[^>]*>/g) ?? []) assert.match(tag, /\ssrc=/, tag);
  assert.doesNotMatch(html, /\son[a-z]+=/i, 'no inline event handlers');

  const { context, page, errors } = await openPage(env.browser, env.url);
  const result = await page.evaluate(async () => {
    const violations = [];
    document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective));
    const s = document.createElement('script');
    s.textContent = 'window.__inline = 1';
    document.body.append(s);
    const img = document.createElement('img');
    img.setAttribute('onerror', 'window.__handler = 1');
    img.src = 'data:,not-an-image';
    document.body.append(img);
    await new Promise((ok) => setTimeout(ok, 300));
    img.remove();
    return { inline: window.__inline, handler: window.__handler, violations };
  });
  assert.equal(result.inline, undefined, 'inline script did not run');
  assert.equal(result.handler, undefined, 'inline handler did not run');
  assert.ok(result.violations.some((v) => v.startsWith('script-src')), result.violations.join());
  // The engine (wasm) and the workers run under the policy: a playout works.
  await page.locator('#tab-playouts').click();
  await page.locator('#po-count').fill('10');
  await page.locator('#po-run').click();
  await page.locator('#po-results .phase.done').waitFor({ timeout: 30_000 });
  assert.deepEqual(errors.filter((e) => !/Content Security Policy/.test(e)), []);
  await context.close();
});

/** A game whose load takes 180 million join steps (a minute and a half natively) and
 * finds nothing: far more time than the main thread may spend. */
function slowGame() {
  const numbers = (name, n) => Array.from({ length: n }, (_, i) => `(${name} ${i})`).join(' ');
  return `; slow to load\n(role a)\n${numbers('node', 600)}\n${numbers('anode', 500)}\n(init s)\n(<= (next s) (does a go))\n` +
    '(<= (edge ?y ?z) (node ?y) (node ?z))\n(<= (p ?x) (anode ?x) (node ?y) (node ?z) (not (edge ?y ?z)))\n' +
    '(<= (legal a go) (anode ?x) (not (p ?x)))\n(goal a 100)\n(<= terminal (true s))\n';
}

test('work too long for the main thread stops at the time limit; workers are cancelled; the text stays', async () => {
  const { context, page, errors } = await openPage(env.browser, env.url);
  const slow = slowGame();
  await setRules(page, slow);
  await page.locator('#problems', { hasText: 'took longer than 3000 ms' }).waitFor({ timeout: 30_000 });
  assert.match(await page.locator('#problems').textContent(), /raise the limit max_millis/);
  assert.equal(await editorText(page), slow);
  await shot(page, 'time-limit');

  // Grounding runs in a worker: Cancel frees the page at once and keeps the text.
  const big = `(role p)\n${Array.from({ length: 50 }, (_, i) => `(index ${i})`).join(' ')}\n(init (s 0))\n` +
    '(<= (legal p (m ?a ?b ?c)) (true (s 0)) (index ?a) (index ?b) (index ?c))\n(<= (next (s 1)) (does p (m ?a ?b ?c)))\n(<= terminal (true (s 1)))\n(goal p 100)\n';
  await setRules(page, big);
  await page.locator('#status', { hasText: '1 role (p)' }).waitFor({ timeout: 30_000 });
  await page.locator('#tab-ground').click();
  await page.locator('#ground-cancel').click();
  assert.match(await page.locator('#ground').textContent(), /Grounding cancelled/);
  await page.locator('#tab-play').click({ timeout: 2_000 });
  await page.locator('.cm-content').click({ timeout: 2_000 });
  await page.keyboard.press('ControlOrMeta+End');
  await page.keyboard.insertText('; still typing\n');
  assert.equal(await editorText(page), `${big}; still typing\n`);

  // Playouts run in a worker: Cancel stops them at once, the text is intact.
  await page.locator('#tab-playouts').click();
  await page.locator('input[name="mode"][value="time"]').check();
  await page.locator('#po-seconds').fill('120');
  await page.locator('#po-run').click();
  await page.locator('#po-results .phase.running').waitFor();
  await page.locator('#po-cancel').click({ timeout: 2_000 });
  await page.locator('#po-results .phase.cancelled').waitFor({ timeout: 5_000 });
  assert.equal(await editorText(page), `${big}; still typing\n`);
  assert.deepEqual(errors, []);
  await context.close();
});
