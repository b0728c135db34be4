import { text } from '../../model/command.js';
import { command } from '../../model/define.js';

/** `lms version`, as gh and kubectl have it: what `lms --version` (and -V) print. */
export const versionCommand = command({
  name: 'version',
  summary: 'Print the version (as --version and -V do)',
  examples: ['lms version'],
  async run() {
    return text(`${__LMS_VERSION__}\n`);
  },
});
