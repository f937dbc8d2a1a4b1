await h.sleep(3000);
const s = await h.shoot('00-start');
return [s, await h.sidebar(), '==TOASTS', await h.toasts(), '==STATUS', await h.statusbar()].join('\n');
