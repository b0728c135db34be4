// Every verb the declarations hold, with the words that lead to it on the command line: what a test
// walks to reach each verb, without building a program.
import { isNoun, wordOf, type CommandSpec, type Verbs } from '../../src/model/command.js';
import { loadAllNouns } from '../../src/commands/index.js';

export interface DeclaredVerb {
  /** ['users', 'settings', 'get']. */
  path: string[];
  spec: CommandSpec<never>;
}

export async function declaredVerbs(): Promise<DeclaredVerb[]> {
  const found: DeclaredVerb[] = [];
  const walk = (commands: Verbs, path: string[]) => {
    for (const command of commands) {
      const at = [...path, wordOf(command)];
      if (isNoun(command)) walk(command.commands, at);
      else found.push({ path: at, spec: command });
    }
  };
  walk(await loadAllNouns(), []);
  return found;
}
