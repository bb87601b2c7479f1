/**
 * Opens an http(s) link in the user's browser: the program in `BROWSER` if set (the usual convention), else
 * the platform's opener. Never throws: where no browser can be opened (SSH, a server) the caller has shown
 * the link, and `onFail` says so once.
 */
export function openInBrowser(url: string, onFail: () => void, env = process.env): void {
  if (!/^https?:\/\//i.test(url)) return onFail();
  const browser = env.BROWSER?.trim();
  const [command, args]: [string, string[]] = browser
    ? [browser, [url]]
    : process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  // Loaded here, when a link is opened: imported at the top, node:child_process costs every start ~3 ms.
  const { spawn } = process.getBuiltinModule('node:child_process');
  const child = spawn(command, args, { stdio: 'ignore', detached: true });
  child.on('error', onFail);
  child.on('exit', (code) => {
    if (code) onFail();
  });
  child.unref();
}
