package rolepolicy.skeleton;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.sf.jsqlparser.expression.Alias;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.create.table.ColDataType;
import net.sf.jsqlparser.statement.select.Select;
import rolepolicy.sql.SqlAnalysisException;
import rolepolicy.sql.SqlAnalyzer;

/**
 * Turns a query into its skeleton: the same query with every table, column and column alias
 * replaced by a numbered placeholder ({@code _tab1}, {@code _col1}, {@code _alias1}), every string
 * by {@code '_str1'}, ..., every number by {@code 1} or {@code 1.0}, and table aliases dropped
 * (docs/skeleton.md). It needs no schema. A query it cannot parse, or holding a form it has no rule
 * for, gives an empty skeleton with op signature {@code PARSE_ERROR}, never the original text.
 *
 * <p>Four steps: parse (JSqlParser's tree, from the fast parser where it reads the text), walk the
 * tree in text order ({@link QueryWalk}), resolve the columns ({@link Resolver}), rename the tree's
 * nodes in place and print it.
 */
public final class Skeletonizer {
  /** A number standing alone in a type's text, {@code VARCHAR (10)}. */
  private static final Pattern TYPE_NUMBER = Pattern.compile("(?<![\\w$.])\\d+(?![\\w$.])");

  /** The skeleton of one query; deterministic: the same text always gives the same skeleton. */
  public Skeleton skeletonize(String sql) {
    Select select;
    try {
      select = SqlAnalyzer.parseSelectFastFirst(sql == null ? "" : sql);
    } catch (SqlAnalysisException e) {
      return Skeleton.failure(withoutText(e.getMessage()));
    } catch (RuntimeException | StackOverflowError e) { // a tree too deep
      return Skeleton.failure("cannot parse the SQL text");
    }
    try {
      QueryWalk walk = new QueryWalk();
      walk.query(select, null);
      Placeholders placeholders = rename(walk);
      return new Skeleton(
          select.toString(),
          signature(walk),
          false,
          null,
          placeholders.shown(Name.Kind.TABLE),
          placeholders.shown(Name.Kind.COLUMN),
          placeholders.shown(Name.Kind.ALIAS),
          placeholders.literals());
    } catch (UnsupportedOperationException e) {
      return Skeleton.failure(e.getMessage());
    }
  }

  /**
   * The analyser's parse error without any text of the query: where it failed, or why ("not a
   * query", "more than one statement"), never the token it stopped at.
   */
  private static String withoutText(String message) {
    if (message.startsWith("cannot parse SQL at ")) {
      return message.replaceFirst(" \\(offset .*$", "");
    }
    boolean textFree = message.startsWith("not a query") || message.startsWith("more than one statement")
        || message.equals("empty SQL text");
    return textFree ? message : "cannot parse the SQL text";
  }

  /**
   * Resolves every column, then renames every recorded node in text order, so that placeholders
   * number in that order (resolving first: it reads the names that renaming replaces).
   */
  private static Placeholders rename(QueryWalk walk) {
    Resolver resolver = new Resolver(walk);
    Map<Use.ColumnName, Resolver.Resolution> resolutions = new IdentityHashMap<>();
    for (Use use : walk.uses) {
      if (use instanceof Use.ColumnName c) {
        resolutions.put(c, resolver.resolve(c));
      }
    }
    Placeholders placeholders = new Placeholders();
    for (Use use : walk.uses) {
      if (use instanceof Use.TableName t) {
        t.table().setName(placeholders.of(t.entry().table()));
        t.table().setSchemaName(null);
        t.table().setAlias(null);
      } else if (use instanceof Use.DerivedAlias d) {
        d.query().setAlias(new Alias(placeholders.of(d.entry().table()), true));
      } else if (use instanceof Use.CommonTableName c) {
        c.item().setAlias(new Alias(placeholders.of(c.table()), false));
      } else if (use instanceof Use.DeclaredColumn d) {
        d.column().setColumnName(placeholders.of(d.name()));
      } else if (use instanceof Use.ColumnName c) {
        column(c.column(), resolutions.get(c), placeholders);
      } else if (use instanceof Use.TableColumns t) {
        t.columns().setTable(new Table(placeholders.of(t.table())));
      } else if (use instanceof Use.ItemAlias a) {
        Name alias = Name.alias(QueryWalk.lower(a.item().getAlias().getName()));
        a.item().setAlias(new Alias(placeholders.of(alias), true));
      } else if (use instanceof Use.Text t) {
        Name text =
            new Name(Name.Kind.STRING, t.value().getNotExcapedValue(), t.value().toString());
        t.value().setPrefix(null);
        t.value().setValue(placeholders.of(text));
      } else if (use instanceof Use.WholeNumber n) {
        n.value().setStringValue(placeholders.number(n.value().getStringValue(), false));
      } else if (use instanceof Use.DecimalNumber n) {
        String placeholder = placeholders.number(n.value().toString(), true);
        n.value().setValue(Double.valueOf(placeholder));
      } else if (use instanceof Use.CastType t) {
        typeNumbers(t.type(), placeholders);
      }
    }
    return placeholders;
  }

  /** JSqlParser keeps a type's numbers in its name ({@code VARCHAR (10)}) or in its arguments. */
  private static void typeNumbers(ColDataType type, Placeholders placeholders) {
    Matcher numbers = TYPE_NUMBER.matcher(type.getDataType());
    StringBuilder name = new StringBuilder();
    while (numbers.find()) {
      numbers.appendReplacement(name, placeholders.number(numbers.group(), false));
    }
    type.setDataType(numbers.appendTail(name).toString());
    if (type.getArgumentsStringList() != null) {
      List<String> arguments = new ArrayList<>();
      for (String argument : type.getArgumentsStringList()) {
        arguments.add(placeholders.number(argument, false));
      }
      type.setArgumentsStringList(arguments);
    }
  }

  private static void column(Column column, Resolver.Resolution resolution, Placeholders names) {
    if (resolution instanceof Resolver.AsColumn c) {
      column.setTable(c.qualifier() == null ? null : new Table(names.of(c.qualifier())));
      column.setColumnName(names.of(c.name()));
    } else if (resolution instanceof Resolver.AsAlias a) {
      column.setTable(null);
      column.setColumnName(names.of(a.alias()));
    } else if (resolution instanceof Resolver.AsText t) {
      // JSqlParser read "text" as a column; printed as a string literal, it re-parses as one
      column.setTable(null);
      column.setColumnName("'" + names.of(t.text()) + "'");
    }
  }

  /** {@code SELECT}, then the parts present, in {@link Op}'s order, space-separated. */
  private static String signature(QueryWalk walk) {
    StringBuilder signature = new StringBuilder("SELECT");
    for (Op op : walk.ops) {
      signature.append(' ').append(op.name());
    }
    return signature.toString();
  }
}
