import HTTPTypes
import Hummingbird

/// The reader page's script and style sheet, shipped inside the binary (plain JavaScript and
/// CSS: no npm, no framework), at `/SECRET/pub/ID/~lectern/NAME`.
enum ReaderAssets {
    static func response(named name: String) -> Response? {
        let (type, text): (String, String)
        switch name {
        case "reader.js": (type, text) = ("text/javascript; charset=utf-8", script)
        case "reader.css": (type, text) = ("text/css; charset=utf-8", styleSheet)
        default: return nil
        }
        var headers = ServerResponse.commonHeaders
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static let styleSheet = #"""
        :root { --bg: #fdfcf8; --fg: #1d1d1b; --bar: #eeebe3; --accent: #7a4b12; color-scheme: light; }
        :root.dark { --bg: #16171a; --fg: #e6e3dc; --bar: #25272c; --accent: #e0a95f; color-scheme: dark; }
        * { box-sizing: border-box; }
        html, body { margin: 0; height: 100%; background: var(--bg); color: var(--fg); font: 15px/1.4 system-ui, sans-serif; }
        body { display: flex; flex-direction: column; }
        header { display: flex; align-items: center; gap: .5em; padding: .4em .6em; background: var(--bar); }
        header h1 { flex: 1; margin: 0; font-size: 1em; font-weight: 600; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
        button { font: inherit; color: var(--fg); background: transparent; border: 1px solid currentColor; border-radius: 4px; padding: .15em .6em; cursor: pointer; }
        button:disabled { opacity: .35; cursor: default; }
        #layout { flex: 1; display: flex; min-height: 0; }
        #toc { width: 18em; overflow: auto; padding: .5em 1em; border-right: 1px solid var(--bar); }
        #toc ul { list-style: none; padding-left: 1em; margin: .2em 0; }
        #toc > ul { padding-left: 0; }
        #toc a { color: var(--accent); text-decoration: none; }
        #toc a[aria-current="true"] { font-weight: 700; }
        main { flex: 1; display: flex; }
        iframe { flex: 1; border: 0; width: 100%; background: #fff; }
        :root.dark iframe { background: #fff; filter: invert(.92) hue-rotate(180deg); }
        #message { margin: 0; padding: .3em .8em; min-height: 1.8em; background: var(--bar); }
        """#

    static let script = #"""
        'use strict';
        (function () {
          const $ = (id) => document.getElementById(id);
          // The capability the rights routes require: kept in this closure only, and gone
          // from the page at once.
          const capabilityElement = document.querySelector('meta[name="lectern-capability"]');
          const capability = capabilityElement ? capabilityElement.content : '';
          if (capabilityElement) { capabilityElement.remove(); }
          let readingOrder = [];
          let index = -1;
          let canCopy = true;
          let restricted = false;

          function say(text) { $('message').textContent = text; }
          function pathOf(href) { return href.split('#')[0]; }
          function indexOf(href) { const path = pathOf(href); return readingOrder.findIndex((link) => pathOf(link.href) === path); }
          function leftText(rights) {
            if (!rights) { return ''; }
            const parts = [];
            if (rights.copyCharactersLeft !== null && rights.copyCharactersLeft !== undefined) { parts.push(rights.copyCharactersLeft + ' characters left to copy'); }
            if (rights.printPagesLeft !== null && rights.printPagesLeft !== undefined) { parts.push(rights.printPagesLeft + ' pages left to print'); }
            return parts.join(', ');
          }

          // Shows the resource `href` (a reading-order href, optionally with a fragment) and
          // records it in the page's fragment, so that a reload or a shared URL reopens it.
          function go(href, record) {
            const target = indexOf(href);
            if (target < 0) { return; }
            index = target;
            // `data-state` says when the shown resource is ready (loaded, copy gate in place):
            // a fragment of the resource already shown only scrolls, with no new load.
            const frame = $('content');
            if (!frame.dataset.href || pathOf(frame.dataset.href) !== pathOf(href)) { frame.dataset.state = 'loading'; }
            frame.dataset.href = href;
            frame.src = href;
            if (record !== false) { history.replaceState(null, '', '#' + encodeURIComponent(href)); }
            $('position').textContent = (index + 1) + ' / ' + readingOrder.length;
            $('prev').disabled = index <= 0;
            $('next').disabled = index >= readingOrder.length - 1;
            for (const a of document.querySelectorAll('#toc a')) {
              a.setAttribute('aria-current', pathOf(a.dataset.href) === pathOf(href) ? 'true' : 'false');
            }
          }
          function step(delta) {
            const target = index + delta;
            if (target >= 0 && target < readingOrder.length) { go(readingOrder[target].href); }
          }

          function buildToc(links, parent) {
            const list = document.createElement('ul');
            for (const link of links) {
              const item = document.createElement('li');
              const anchor = document.createElement('a');
              anchor.textContent = link.title || link.href;
              anchor.href = '#' + encodeURIComponent(link.href);
              anchor.dataset.href = link.href;
              anchor.addEventListener('click', (event) => { event.preventDefault(); go(link.href); });
              item.append(anchor);
              if (link.children && link.children.length) { buildToc(link.children, item); }
              list.append(item);
            }
            parent.append(list);
          }

          // The copy event is decided at once: a synchronous request asks the rights route,
          // which consumes the characters when allowed; otherwise the copy is cancelled.
          function gateCopy(event) {
            const source = event.target && event.target.ownerDocument ? event.target.ownerDocument : document;
            const text = String(source.getSelection ? source.getSelection() : '');
            if (!text) { return; }
            const request = new XMLHttpRequest();
            request.open('GET', '~readium/rights/copy?text=' + encodeURIComponent(text), false);
            request.setRequestHeader('Lectern-Capability', capability);
            try { request.send(); } catch (error) { event.preventDefault(); say('Copy refused: the server cannot be reached.'); return; }
            let answer = {};
            try { answer = JSON.parse(request.responseText); } catch (error) { answer = {}; }
            if (request.status === 200) {
              say('Copied ' + text.length + ' characters. ' + leftText(answer.rights));
            } else {
              event.preventDefault();
              event.stopImmediatePropagation();
              say('Copy refused: ' + (answer.detail || 'not allowed') + '. ' + leftText(answer.rights));
            }
          }

          function prepareFrame() {
            const frame = $('content');
            let doc = null;
            try { doc = frame.contentDocument; } catch (error) { doc = null; }
            if (!doc) { frame.dataset.state = 'ready'; return; }
            if (!canCopy || restricted) {
              const style = doc.createElement('style');
              style.textContent = '* { user-select: none !important; -webkit-user-select: none !important; }';
              (doc.head || doc.documentElement).append(style);
            }
            doc.addEventListener('copy', gateCopy, true);
            doc.addEventListener('cut', gateCopy, true);
            doc.addEventListener('keydown', keys);
            frame.dataset.state = 'ready';
          }

          function keys(event) {
            if (event.key === 'ArrowRight' || event.key === 'PageDown') { step(1); }
            if (event.key === 'ArrowLeft' || event.key === 'PageUp') { step(-1); }
          }

          async function print() {
            const frame = $('content');
            let pages = 1;
            try { pages = Math.max(1, Math.ceil(frame.contentDocument.documentElement.scrollHeight / 1100)); } catch (error) { pages = 1; }
            const response = await fetch('~readium/rights/print?pageCount=' + pages, { headers: { 'Lectern-Capability': capability } });
            const answer = await response.json().catch(() => ({}));
            if (response.ok) {
              say('Printing ' + pages + ' pages. ' + leftText(answer.rights));
              frame.contentWindow.print();
            } else {
              say('Print refused: ' + (answer.detail || 'not allowed') + '. ' + leftText(answer.rights));
            }
          }

          function setTheme(dark) {
            document.documentElement.classList.toggle('dark', dark);
            $('theme').textContent = dark ? 'Light' : 'Dark';
            try { localStorage.setItem('lectern-theme', dark ? 'dark' : 'light'); } catch (error) { /* private mode */ }
          }

          async function start() {
            let stored = null;
            try { stored = localStorage.getItem('lectern-theme'); } catch (error) { stored = null; }
            setTheme(stored ? stored === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches);
            const manifest = await (await fetch('manifest.json')).json();
            const status = await (await fetch('~readium/content-protection')).json();
            restricted = !!status.isRestricted;
            canCopy = !!(status.rights && status.rights.canCopy);
            if (restricted) { say('This publication is locked: ' + ((status.error && (status.error.en || status.error)) || 'restricted')); }
            readingOrder = manifest.readingOrder || [];
            const toc = manifest.toc && manifest.toc.length ? manifest.toc : readingOrder;
            buildToc(toc, $('toc'));
            $('content').addEventListener('load', prepareFrame);
            document.addEventListener('copy', gateCopy, true);
            document.addEventListener('keydown', keys);
            $('prev').addEventListener('click', () => step(-1));
            $('next').addEventListener('click', () => step(1));
            $('print').addEventListener('click', print);
            $('theme').addEventListener('click', () => setTheme(!document.documentElement.classList.contains('dark')));
            $('toc-toggle').addEventListener('click', () => {
              const toc = $('toc');
              toc.hidden = !toc.hidden;
              $('toc-toggle').setAttribute('aria-expanded', String(!toc.hidden));
            });
            window.addEventListener('hashchange', () => go(decodeURIComponent(location.hash.slice(1)), false));
            const initial = decodeURIComponent(location.hash.slice(1));
            if (initial && indexOf(initial) >= 0) { go(initial, false); } else if (readingOrder.length) { go(readingOrder[0].href); }
          }

          start().catch((error) => say('The publication cannot be shown: ' + error));
        })();
        """#
}
