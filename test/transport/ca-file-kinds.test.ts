// A CA file that is not a regular file is refused at once, naming what it is. The named pipe, which
// held lms for ever (the open waits for a writer), is test/e2e/hostile-answers.test.ts's: a
// regression would block this process, past any test timeout.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCaFile } from '../../src/transport/trust.js';

const dir = mkdtempSync(join(tmpdir(), 'lms-ca-kinds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a CA file that is not a regular file', () => {
  it('a directory is refused, saying so', () => {
    const folder = join(dir, 'certs');
    mkdirSync(folder);
    expect(() => readCaFile({ path: folder, source: '--ca-file' })).toThrow(
      `cannot read the CA file ${folder} (from --ca-file): it is a directory, not a file`,
    );
  });

  it.skipIf(process.platform === 'win32')('a device is refused unread', () => {
    expect(() => readCaFile({ path: '/dev/zero', source: 'LMS_CA_FILE' })).toThrow(
      'cannot read the CA file /dev/zero (from LMS_CA_FILE): it is a device, not a file',
    );
  });
});
