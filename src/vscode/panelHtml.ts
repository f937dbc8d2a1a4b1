import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';

/** A fresh nonce for one document's Content-Security-Policy. */
export function createNonce(): string {
  return randomBytes(18).toString('base64');
}

/**
 * The plan panel's document: a strict Content-Security-Policy (nothing by default; the one
 * bundled script and inline styles only with the nonce or from the extension; images from
 * the extension; no network), the bundle `dist/webview.js`, and the root element. The
 * scroll padding keeps a focused element clear of the review's sticky Start / Cancel bar.
 */
export function panelHtml(webview: vscode.Webview, extensionUri: vscode.Uri, nonce: string): string {
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js'));
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${webview.cspSource} 'nonce-${nonce}'`,
    `img-src ${webview.cspSource} data:`,
    `font-src ${webview.cspSource}`,
    "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Task Planner: Plan</title>
<style nonce="${nonce}">html { scroll-padding-bottom: 64px; } html, body { margin: 0; padding: 0; background: var(--vscode-editor-background); color: \
var(--vscode-foreground); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }</style>
</head>
<body>
<plan-panel-app data-nonce="${nonce}"></plan-panel-app>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}
