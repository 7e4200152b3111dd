package rolepolicy.skeleton;

import java.util.List;
import java.util.Set;
import net.sf.jsqlparser.statement.select.Select;

/**
 * One FROM entry of a query level.
 *
 * @param table the table placeholder's name: a schema table, a common table or a derived table
 * @param qualifiers what qualifies its columns, lower-cased: the alias and the table name
 * @param body the query of a common or derived table; null for a schema table
 * @param declaredColumns a common table's column list ({@code WITH t(a, b)}), lower-cased
 */
record FromEntry(Name table, Set<String> qualifiers, Select body, List<String> declaredColumns) {}
