// Other Node lines than the one running the suite, for tests that cross lines: fetched through npm
// (`npx node@N`, its own registry package, cached after the first time).
import { execa } from 'execa';

const found = new Map<number, Promise<string | undefined>>();

export const currentMajor = Number(process.versions.node.split('.')[0]);

/** The path of a Node binary of that major line, or undefined where npm cannot get one. */
export function nodeLine(major: number): Promise<string | undefined> {
  if (major === currentMajor) return Promise.resolve(process.execPath);
  let path = found.get(major);
  if (!path) {
    path = execa('npx', ['-y', `node@${major}`, '-p', 'process.execPath'], { reject: false, timeout: 180_000 }).then(
      (r) => (r.exitCode === 0 && r.stdout.trim().startsWith('/') ? r.stdout.trim() : undefined),
    );
    found.set(major, path);
  }
  return path;
}
