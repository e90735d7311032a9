/**
 * The messages' look, adopted by their shadow root as a constructed stylesheet: a site's CSP without 'unsafe-inline'
 * allows it, where a <style> element or a style attribute would be refused.
 */
export const inAppCss = `
:host { all: initial; }
.backdrop { position: fixed; inset: 0; background: rgba(17, 24, 39, .55); display: flex; align-items: center;
  justify-content: center; z-index: 2147483647; padding: 16px; box-sizing: border-box; }
.banner { position: fixed; top: 12px; left: 50%; transform: translateX(-50%); width: min(560px, calc(100% - 24px));
  z-index: 2147483647; }
.preview .backdrop, .preview.banner { position: relative; inset: auto; top: auto; left: auto; transform: none;
  width: auto; min-height: 100%; }
.dialog { position: relative; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #111827;
  background: #fff; border-radius: 12px; box-shadow: 0 12px 40px rgba(0, 0, 0, .3); max-width: 420px; width: 100%;
  overflow: hidden; box-sizing: border-box; }
.banner .dialog { max-width: none; display: flex; flex-wrap: wrap; gap: 0 12px; align-items: center; padding: 0 40px 0 12px; }
.image { display: block; width: 100%; max-height: 220px; object-fit: cover; }
.banner .image { width: 64px; height: 64px; flex: none; }
.text { padding: 20px 20px 8px; }
.banner .text { padding: 12px 0; flex: 1 1 12em; min-width: 0; }
.title { margin: 0 0 6px; font-size: 18px; font-weight: 650; }
.body { margin: 0; white-space: pre-line; overflow-wrap: anywhere; }
.buttons { display: flex; flex-wrap: wrap; gap: 8px; justify-content: flex-end; padding: 12px 20px 20px; }
.banner .buttons { padding: 12px 0; margin-left: auto; }
button { font: inherit; border-radius: 8px; padding: 8px 16px; cursor: pointer; border: 1px solid #1d4ed8; }
.primary { background: #1d4ed8; color: #fff; }
.secondary { background: #fff; color: #1d4ed8; }
.close { position: absolute; top: 6px; right: 6px; border: 0; background: transparent; color: #374151;
  font-size: 22px; line-height: 1; padding: 6px 10px; }
button:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
`;
