// Opens a URL in the user's browser, where there is one: $BROWSER when set, else the platform's own
// opener (open on macOS, the URL protocol handler on Windows, xdg-open under a graphical session
// elsewhere). Not the `open` package: it finds its bundled xdg-open beside its own module file,
// which a bundle moves, and it brings half a dozen packages for three commands. The URL is printed
// whatever happens, so a browser that does not appear costs nothing but a copy and paste.
import { spawn, type SpawnOptions } from 'node:child_process';

/** Whether a browser was started (not whether it showed the page: no opener says). */
export async function openBrowser(
  url: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): Promise<boolean> {
  const command = openerFor(url, env, platform);
  if (!command) return false;
  const options: SpawnOptions = { stdio: 'ignore', detached: true, env };
  return new Promise<boolean>((resolve) => {
    try {
      const child = spawn(command[0], command.slice(1), options);
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}

/** The command that opens `url` here, or undefined where nothing would show it (no display). */
export function openerFor(url: string, env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string[] | undefined {
  // $BROWSER may list several, separated by colons (the first is the one people mean), and may say
  // where the URL goes with %s, as xdg-open reads it.
  const chosen = env.BROWSER?.split(':')[0]?.trim();
  if (chosen) {
    const words = chosen.split(/\s+/);
    return words.some((w) => w.includes('%s')) ? words.map((w) => w.replaceAll('%s', url)) : [...words, url];
  }
  if (platform === 'darwin') return ['open', url];
  // rundll32, not `cmd /c start`: cmd would read the & between query parameters as its own.
  if (platform === 'win32') return ['rundll32', 'url.dll,FileProtocolHandler', url];
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return undefined;
  return ['xdg-open', url];
}
