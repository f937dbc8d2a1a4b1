h.deepText = async () => {
  const frames = page.frames();
  const out = [];
  for (const f of frames) {
    const t = await f.evaluate(() => {
      const app = document.querySelector('plan-panel-app');
      if (!app) return null;
      const walk = (node) => {
        let s = '';
        const kids = node.shadowRoot ? [...node.shadowRoot.childNodes] : [...node.childNodes];
        for (const k of kids) {
          if (k.nodeType === 3) s += k.textContent;
          else if (k.nodeType === 1) {
            const el = k;
            if (['STYLE','SCRIPT'].includes(el.tagName)) continue;
            const cs = getComputedStyle(el);
            if (cs.display === 'none' || cs.visibility === 'hidden') continue;
            const block = /^(block|flex|grid|list-item|table|table-row)/.test(cs.display);
            if (el.tagName === 'SLOT') { s += el.assignedNodes({flatten:true}).map((n) => n.nodeType===3? n.textContent : walk(n)).join(''); continue; }
            let inner = walk(el);
            if (el.getAttribute && el.getAttribute('aria-label') && !inner.trim()) inner = '[' + el.getAttribute('aria-label') + ']';
            if (el.tagName === 'VSCODE-OPTION') inner = '<option ' + (el.getAttribute('value')) + ': ' + el.textContent + '>';
            s += block ? '\n' + inner + '\n' : inner + (el.tagName==='TD'||el.tagName==='TH' ? ' | ' : '');
          }
        }
        return s;
      };
      return walk(app);
    }).catch(() => null);
    if (t) out.push(t);
  }
  return out.join('\n=====\n').replace(/[ \t]+/g, ' ').replace(/\n\s*\n+/g, '\n');
};
globalThis.__h = h;
return await h.deepText();
