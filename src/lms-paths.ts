// The platform's directories for lms (~/.config/lms, ~/.local/share/lms, ~/.cache/lms, and their
// macOS and Windows places), for the CLI's config and caches and the mock's database alike. Other
// files of the bundle ask here by name: a default import of the package itself from another file
// would not survive the split into files (the build refuses one).
import envPaths from 'env-paths';

export const lmsPaths = () => envPaths('lms', { suffix: '' });
