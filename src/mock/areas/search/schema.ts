// The names message recipients are searched by (users, courses, sections, groups), indexed by
// trigrams so that every %term% match is an index read; kept current by triggers, whoever writes.
// A row's rowid encodes what it names: id * 4 + kind (0 user, 1 course, 2 section, 3 group).
const kinds = [
  ['user', 'users', 0],
  ['course', 'courses', 1],
  ['section', 'course_sections', 2],
  ['group', 'groups', 3],
] as const;

const triggers = kinds
  .map(
    ([kind, table, k]) => `CREATE TRIGGER recipient_names_${kind}_insert AFTER INSERT ON ${table} BEGIN
  INSERT INTO recipient_names (rowid, name) VALUES (new.id * 4 + ${k}, new.name);
END;
CREATE TRIGGER recipient_names_${kind}_update AFTER UPDATE OF name ON ${table} BEGIN
  DELETE FROM recipient_names WHERE rowid = new.id * 4 + ${k};
  INSERT INTO recipient_names (rowid, name) VALUES (new.id * 4 + ${k}, new.name);
END;`,
  )
  .join('\n');

export const schema = `
CREATE VIRTUAL TABLE recipient_names USING fts5(name, tokenize = 'trigram');
${triggers}
`;

/** recipient_names as a bulk load fills it: the names of the rows each table gained. */
export const recipientIndex = {
  triggers,
  fills: kinds.map(([, table, k]) => ({
    table,
    fill: `INSERT INTO recipient_names (rowid, name) SELECT id * 4 + ${k}, name FROM ${table} WHERE id > ?`,
  })),
};
