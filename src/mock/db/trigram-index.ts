// A search index of some text columns of one table: an FTS5 trigram table whose rowid is the row's
// id, kept current by triggers, so that search_term's %term% match is an index read.
import type { BulkIndex } from './bulk.js';

export interface TrigramIndex {
  /** The index and its triggers, for the area's schema. */
  schema: string;
  /** The area's bulkIndexes entry: a bulk load drops the triggers and fills the index once. */
  bulk: BulkIndex;
}

export function trigramIndex(index: string, table: string, columns: readonly string[]): TrigramIndex {
  const names = columns.join(', ');
  const values = columns.map((c) => `new.${c}`).join(', ');
  const triggers = `CREATE TRIGGER ${index}_insert AFTER INSERT ON ${table} BEGIN
  INSERT INTO ${index} (rowid, ${names}) VALUES (new.id, ${values});
END;
CREATE TRIGGER ${index}_update AFTER UPDATE OF ${names} ON ${table} BEGIN
  DELETE FROM ${index} WHERE rowid = new.id;
  INSERT INTO ${index} (rowid, ${names}) VALUES (new.id, ${values});
END;
CREATE TRIGGER ${index}_delete AFTER DELETE ON ${table} BEGIN
  DELETE FROM ${index} WHERE rowid = old.id;
END;
`;
  return {
    schema: `CREATE VIRTUAL TABLE ${index} USING fts5(${names}, tokenize = 'trigram');\n${triggers}`,
    bulk: {
      triggers,
      fills: [{ table, fill: `INSERT INTO ${index} (rowid, ${names}) SELECT id, ${names} FROM ${table} WHERE id > ?` }],
    },
  };
}
