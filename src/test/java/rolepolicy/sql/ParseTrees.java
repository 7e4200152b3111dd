package rolepolicy.sql;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.ParseException;
import net.sf.jsqlparser.parser.SimpleNode;
import net.sf.jsqlparser.parser.Token;
import net.sf.jsqlparser.parser.TokenMgrException;

/**
 * JSqlParser object trees as text, to compare the tree {@link SpiderSqlParser} builds with
 * JSqlParser's: every field of every object, by reflection. A syntax-tree node is written as the
 * positions of its first and last tokens on the objects whose spans the analysis reads (SELECT
 * items, columns, function calls) and left out on all others, where JSqlParser sets it on some
 * objects only and nothing reads it.
 */
final class ParseTrees {
  private static final Set<String> SPANNED = Set.of("SelectItem", "Column", "Function");

  private final StringBuilder out = new StringBuilder();
  private final Map<Object, Integer> seen = new IdentityHashMap<>();

  private ParseTrees() {}

  /**
   * JSqlParser's tree of the text, as text; null when JSqlParser rejects the text with a parse or
   * lexical error. Any other exception is thrown.
   */
  static String jsqlparser(String sql) {
    try {
      return of(CCJSqlParserUtil.newParser(sql).withSquareBracketQuotation(true).Statement());
    } catch (ParseException | TokenMgrException e) {
      return null;
    }
  }

  /** The fast parser's tree of the text, as text; null when it declines. */
  static String fast(String sql) {
    Object tree = SpiderSqlParser.parse(sql);
    return tree == null ? null : of(tree);
  }

  static String of(Object tree) {
    ParseTrees dump = new ParseTrees();
    dump.write(tree);
    return dump.out.toString();
  }

  private void write(Object o) {
    if (o == null) {
      out.append("null");
    } else if (o instanceof String
        || o instanceof Number
        || o instanceof Boolean
        || o instanceof Character
        || o instanceof Enum<?>) {
      out.append(o.getClass().getSimpleName()).append(':').append(o);
    } else if (o instanceof SimpleNode node) {
      Token first = node.jjtGetFirstToken();
      Token last = node.jjtGetLastToken();
      out.append(
          String.format(
              "node[%d:%d..%d:%d]",
              first.beginLine, first.beginColumn, last.endLine, last.endColumn));
    } else if (seen.containsKey(o)) {
      out.append('#').append(seen.get(o));
    } else {
      seen.put(o, seen.size());
      writeObject(o);
    }
  }

  private void writeObject(Object o) {
    Class<?> type = o.getClass();
    out.append(type.getSimpleName());
    if (o instanceof Collection<?> collection) {
      out.append('[');
      collection.forEach(this::writeItem);
      out.append(']');
    } else if (type.isArray()) {
      out.append('[');
      for (int i = 0; i < Array.getLength(o); i++) {
        writeItem(Array.get(o, i));
      }
      out.append(']');
    } else if (!type.getName().startsWith("net.sf.jsqlparser.")) {
      throw new IllegalArgumentException("unexpected " + type.getName() + " in a parse tree");
    } else {
      out.append('{');
      for (Class<?> c = type; c != Object.class; c = c.getSuperclass()) {
        for (Field field : c.getDeclaredFields()) {
          if (Modifier.isStatic(field.getModifiers())
              || (field.getName().equals("node") && !SPANNED.contains(type.getSimpleName()))) {
            continue;
          }
          field.setAccessible(true);
          out.append(field.getName()).append('=');
          try {
            write(field.get(o));
          } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
          }
          out.append(';');
        }
      }
      out.append('}');
    }
  }

  private void writeItem(Object item) {
    write(item);
    out.append(',');
  }
}
